CREATE TABLE `relayed_pairs` (
	`node_a` text NOT NULL,
	`node_b` text NOT NULL,
	`network_id` text NOT NULL,
	`relay_node_id` text,
	`moved_at` text NOT NULL,
	`hold_seconds` integer NOT NULL,
	PRIMARY KEY(`node_a`, `node_b`),
	FOREIGN KEY (`node_a`) REFERENCES `nodes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`node_b`) REFERENCES `nodes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`network_id`) REFERENCES `networks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`relay_node_id`) REFERENCES `nodes`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `relayed_pairs_network_idx` ON `relayed_pairs` (`network_id`);--> statement-breakpoint
ALTER TABLE `nodes` ADD `relay` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `nodes` ADD `local_endpoints` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `nodes` ADD `public_host` text;--> statement-breakpoint
ALTER TABLE `nodes` ADD `observed_endpoint` text;--> statement-breakpoint
ALTER TABLE `nodes` ADD `observed_at` text;--> statement-breakpoint
ALTER TABLE `tunnel_observations` ADD `endpoint` text;