CREATE TABLE `devices` (
	`id` text PRIMARY KEY NOT NULL,
	`network_id` text NOT NULL,
	`node_id` text NOT NULL,
	`user_id` text,
	`enrolment_key_id` text,
	`platform` text DEFAULT '' NOT NULL,
	`client_version` text DEFAULT '' NOT NULL,
	`credential_hash` text NOT NULL,
	`reported_endpoint` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`network_id`) REFERENCES `networks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `devices_credentialHash_unique` ON `devices` (`credential_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `devices_node_uq` ON `devices` (`node_id`);--> statement-breakpoint
CREATE INDEX `devices_user_idx` ON `devices` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `devices_network_idx` ON `devices` (`network_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `enrolment_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`network_id` text NOT NULL,
	`name` text NOT NULL,
	`key_hash` text NOT NULL,
	`created_by` text,
	`expires_at` text NOT NULL,
	`usage_limit` integer NOT NULL,
	`used_count` integer DEFAULT 0 NOT NULL,
	`revoked_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`network_id`) REFERENCES `networks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `enrolment_keys_keyHash_unique` ON `enrolment_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `enrolment_keys_network_idx` ON `enrolment_keys` (`network_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `tunnel_observations` (
	`id` text PRIMARY KEY NOT NULL,
	`network_id` text NOT NULL,
	`from_node_id` text NOT NULL,
	`peer_public_key` text NOT NULL,
	`last_handshake_at` text,
	`rx_bytes` integer NOT NULL,
	`tx_bytes` integer NOT NULL,
	`reported_at` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`network_id`) REFERENCES `networks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tunnel_observations_pair_uq` ON `tunnel_observations` (`from_node_id`,`peer_public_key`);--> statement-breakpoint
CREATE INDEX `tunnel_observations_network_idx` ON `tunnel_observations` (`network_id`,`created_at`);