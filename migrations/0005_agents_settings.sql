CREATE TABLE `notification_channels` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`type` text NOT NULL,
	`target` text NOT NULL,
	`events` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`secret_sealed` text,
	`secret_rotated_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `notification_channels_user_idx` ON `notification_channels` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `notification_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`network_id` text,
	`group_id` text,
	`subject_id` text,
	`data` text NOT NULL,
	`dedupe_key` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`network_id`) REFERENCES `networks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notification_events_dedupe_uq` ON `notification_events` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `notification_events_network_idx` ON `notification_events` (`network_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `notification_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	`channel_id` text NOT NULL,
	`user_id` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text,
	`last_attempt_at` text,
	`last_status_code` integer,
	`last_error` text,
	`delivered_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `notification_events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`channel_id`) REFERENCES `notification_channels`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `notification_deliveries_due_idx` ON `notification_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `notification_deliveries_user_idx` ON `notification_deliveries` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `notification_deliveries_channel_idx` ON `notification_deliveries` (`channel_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `notification_deliveries_event_idx` ON `notification_deliveries` (`event_id`);--> statement-breakpoint
CREATE TABLE `node_presence` (
	`node_id` text PRIMARY KEY NOT NULL,
	`state` text NOT NULL,
	`changed_at` text NOT NULL,
	`behind_since` text,
	`drift_notified_revision` integer,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`node_id`) REFERENCES `nodes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `node_presence_behind_idx` ON `node_presence` (`behind_since`);--> statement-breakpoint
CREATE TABLE `gateway_presence` (
	`gateway_id` text PRIMARY KEY NOT NULL,
	`state` text NOT NULL,
	`changed_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`gateway_id`) REFERENCES `gateways`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `audit_events` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` text NOT NULL,
	`actor_type` text NOT NULL,
	`actor_id` text,
	`method` text NOT NULL,
	`route` text NOT NULL,
	`params` text NOT NULL,
	`resource_id` text,
	`group_id` text,
	`network_id` text,
	`status` integer NOT NULL,
	`request_id` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_events_created_idx` ON `audit_events` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `audit_events_group_idx` ON `audit_events` (`group_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `audit_events_network_idx` ON `audit_events` (`network_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `audit_events_actor_idx` ON `audit_events` (`actor_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `agent_enrolment_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`region_id` text,
	`gateway_id` text,
	`token_hash` text NOT NULL,
	`created_by` text,
	`expires_at` text NOT NULL,
	`used_at` text,
	`used_by_agent_id` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`region_id`) REFERENCES `regions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`gateway_id`) REFERENCES `gateways`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agent_enrolment_tokens_tokenHash_unique` ON `agent_enrolment_tokens` (`token_hash`);--> statement-breakpoint
CREATE TABLE `agents` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`region_id` text,
	`gateway_id` text,
	`version` text DEFAULT '' NOT NULL,
	`credential_hash` text NOT NULL,
	`revoked_at` text,
	`last_seen_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`region_id`) REFERENCES `regions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`gateway_id`) REFERENCES `gateways`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agents_credentialHash_unique` ON `agents` (`credential_hash`);--> statement-breakpoint
CREATE INDEX `agents_created_idx` ON `agents` (`created_at`);--> statement-breakpoint
CREATE TABLE `admin_settings` (
	`id` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_by` text,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `gateways` ADD `health` text DEFAULT 'unknown' NOT NULL;--> statement-breakpoint
ALTER TABLE `gateways` ADD `health_checked_at` text;--> statement-breakpoint
ALTER TABLE `nodes` ADD `applied_dns_revision` integer;