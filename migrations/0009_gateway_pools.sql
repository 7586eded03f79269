CREATE TABLE `forwarding_probes` (
	`node_id` text PRIMARY KEY NOT NULL,
	`network_id` text NOT NULL,
	`fail_streak` integer DEFAULT 0 NOT NULL,
	`checked_at` text NOT NULL,
	FOREIGN KEY (`node_id`) REFERENCES `nodes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `gateway_pools` (
	`id` text PRIMARY KEY NOT NULL,
	`network_id` text NOT NULL,
	`name` text NOT NULL,
	`preempt` integer DEFAULT false NOT NULL,
	`members` text NOT NULL,
	`active_node_id` text NOT NULL,
	`last_failover_at` text,
	`last_failover_from` text,
	`last_failover_to` text,
	`last_failover_reason` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`network_id`) REFERENCES `networks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `gateway_pools_network_name_uq` ON `gateway_pools` (`network_id`,`name`);--> statement-breakpoint
CREATE INDEX `gateway_pools_network_created_idx` ON `gateway_pools` (`network_id`,`created_at`);