CREATE TABLE `idp_group_mappings` (
	`id` text PRIMARY KEY NOT NULL,
	`idp_group` text NOT NULL,
	`group_id` text NOT NULL,
	`role` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `idp_group_mappings_group_idx` ON `idp_group_mappings` (`group_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `idp_group_mappings_pair` ON `idp_group_mappings` (`idp_group`,`group_id`);--> statement-breakpoint
CREATE TABLE `idp_group_members` (
	`idp_group_id` text NOT NULL,
	`user_id` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`idp_group_id`, `user_id`),
	FOREIGN KEY (`idp_group_id`) REFERENCES `idp_groups`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `idp_group_members_user_idx` ON `idp_group_members` (`user_id`);--> statement-breakpoint
CREATE TABLE `idp_groups` (
	`id` text PRIMARY KEY NOT NULL,
	`display_name` text NOT NULL,
	`external_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `idp_groups_displayName_unique` ON `idp_groups` (`display_name`);--> statement-breakpoint
CREATE TABLE `oidc_group_claims` (
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`user_id`, `name`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `oidc_group_claims_name_idx` ON `oidc_group_claims` (`name`);--> statement-breakpoint
ALTER TABLE `users` ADD `external_id` text;--> statement-breakpoint
ALTER TABLE `users` ADD `directory_user_name` text;--> statement-breakpoint
ALTER TABLE `users` ADD `given_name` text;--> statement-breakpoint
ALTER TABLE `users` ADD `family_name` text;--> statement-breakpoint
CREATE UNIQUE INDEX `users_directoryUserName_unique` ON `users` (`directory_user_name`);--> statement-breakpoint
CREATE INDEX `users_external_id_idx` ON `users` (`external_id`);--> statement-breakpoint
ALTER TABLE `memberships` ADD `source` text DEFAULT 'manual' NOT NULL;