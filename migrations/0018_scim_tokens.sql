CREATE TABLE `scim_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`token_hash` text NOT NULL,
	`created_by` text,
	`created_at` text NOT NULL,
	`last_used_at` text,
	`revoked_at` text,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `scim_tokens_name_unique` ON `scim_tokens` (`name`);--> statement-breakpoint
CREATE UNIQUE INDEX `scim_tokens_tokenHash_unique` ON `scim_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `scim_tokens_created_idx` ON `scim_tokens` (`created_at`);