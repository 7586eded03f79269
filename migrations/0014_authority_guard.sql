CREATE TABLE `authority_guard` (
	`held` integer NOT NULL,
	CONSTRAINT "authority_held" CHECK("authority_guard"."held" = 1)
);
