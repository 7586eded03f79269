CREATE TABLE `metric_counters` (
	`key` text PRIMARY KEY NOT NULL,
	`value` integer DEFAULT 0 NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `metrics_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`token_hash` text NOT NULL,
	`created_by` text,
	`created_at` text NOT NULL,
	`revoked_at` text,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `metrics_tokens_tokenHash_unique` ON `metrics_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `metrics_tokens_revoked_idx` ON `metrics_tokens` (`revoked_at`);