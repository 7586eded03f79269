ALTER TABLE `nodes` ADD `peer_report_seq` integer;--> statement-breakpoint
ALTER TABLE `nodes` ADD `peer_resync_from` text;