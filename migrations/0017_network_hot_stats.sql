CREATE TABLE `network_hot_stats` (
	`network_id` text PRIMARY KEY NOT NULL,
	`nodes_online` integer NOT NULL,
	`nodes_behind` integer NOT NULL,
	`nodes_unreported` integer NOT NULL,
	`heartbeat_ages` text NOT NULL,
	`tunnel_ends` integer NOT NULL,
	`handshake_ages` text NOT NULL,
	`direct_pairs` integer NOT NULL,
	`computed_at` text NOT NULL,
	FOREIGN KEY (`network_id`) REFERENCES `networks`(`id`) ON UPDATE no action ON DELETE cascade
);
