CREATE TABLE `regions` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `regions_name_unique` ON `regions` (`name`);--> statement-breakpoint
CREATE TABLE `gateways` (
	`id` text PRIMARY KEY NOT NULL,
	`region_id` text NOT NULL,
	`name` text NOT NULL,
	`public_host` text,
	`status` text DEFAULT 'active' NOT NULL,
	`capacity` integer,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`region_id`) REFERENCES `regions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `gateways_name_unique` ON `gateways` (`name`);--> statement-breakpoint
CREATE INDEX `gateways_region_idx` ON `gateways` (`region_id`);--> statement-breakpoint
CREATE TABLE `nodes` (
	`id` text PRIMARY KEY NOT NULL,
	`network_id` text NOT NULL,
	`name` text NOT NULL,
	`public_key` text NOT NULL,
	`address` text NOT NULL,
	`endpoint` text,
	`listen_port` integer,
	`is_gateway` integer DEFAULT false NOT NULL,
	`gateway_id` text,
	`device_id` text,
	`routing_mode` text DEFAULT 'all' NOT NULL,
	`routing_policy_ids` text DEFAULT '[]' NOT NULL,
	`revision` integer NOT NULL,
	`applied_routing_revision` integer,
	`last_seen_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`network_id`) REFERENCES `networks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`gateway_id`) REFERENCES `gateways`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `nodes_network_address_uq` ON `nodes` (`network_id`,`address`);--> statement-breakpoint
CREATE UNIQUE INDEX `nodes_network_name_uq` ON `nodes` (`network_id`,`name`);--> statement-breakpoint
CREATE UNIQUE INDEX `nodes_network_key_uq` ON `nodes` (`network_id`,`public_key`);--> statement-breakpoint
CREATE INDEX `nodes_network_created_idx` ON `nodes` (`network_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `nodes_gateway_idx` ON `nodes` (`gateway_id`);--> statement-breakpoint
CREATE TABLE `routing_policies` (
	`id` text PRIMARY KEY NOT NULL,
	`network_id` text NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`destination_cidr` text NOT NULL,
	`gateway_path` text NOT NULL,
	`revision` integer NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`network_id`) REFERENCES `networks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `routing_policies_network_name_uq` ON `routing_policies` (`network_id`,`name`);--> statement-breakpoint
CREATE INDEX `routing_policies_network_created_idx` ON `routing_policies` (`network_id`,`created_at`);