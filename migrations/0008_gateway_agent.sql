DROP INDEX `nodes_network_key_uq`;--> statement-breakpoint
ALTER TABLE `nodes` ADD `serves_dns` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `nodes` ADD `apply_error` text;--> statement-breakpoint
CREATE UNIQUE INDEX `nodes_network_key_uq` ON `nodes` (`network_id`,`public_key`) WHERE "nodes"."public_key" <> '';