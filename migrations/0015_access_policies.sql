CREATE TABLE `access_policy_revisions` (
	`network_id` text NOT NULL,
	`revision` integer NOT NULL,
	`rules` text NOT NULL,
	`tests` text NOT NULL,
	`created_by` text,
	`created_at` text NOT NULL,
	PRIMARY KEY(`network_id`, `revision`),
	FOREIGN KEY (`network_id`) REFERENCES `networks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `networks` ADD `access_mode` text DEFAULT 'open' NOT NULL;--> statement-breakpoint
ALTER TABLE `networks` ADD `access_revision` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `nodes` ADD `tags` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `enrolment_keys` ADD `tags` text DEFAULT '[]' NOT NULL;