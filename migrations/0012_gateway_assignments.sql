CREATE TABLE `gateway_assignments` (
	`id` text PRIMARY KEY NOT NULL,
	`group_id` text NOT NULL,
	`gateway_id` text,
	`region_id` text,
	`created_by` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`gateway_id`) REFERENCES `gateways`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`region_id`) REFERENCES `regions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "gateway_assignments_one_target" CHECK(("gateway_assignments"."gateway_id" is null) <> ("gateway_assignments"."region_id" is null))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `gateway_assignments_group_gateway_unique` ON `gateway_assignments` (`group_id`,`gateway_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `gateway_assignments_group_region_unique` ON `gateway_assignments` (`group_id`,`region_id`);--> statement-breakpoint
CREATE INDEX `gateway_assignments_gateway_idx` ON `gateway_assignments` (`gateway_id`);--> statement-breakpoint
CREATE INDEX `gateway_assignments_region_idx` ON `gateway_assignments` (`region_id`);--> statement-breakpoint
-- Upgrade back-fill: a group keeps every inventory gateway its networks' gateway nodes already run on
-- (docs/identity.md, "Gateway assignment"). created_by stays null: nobody assigned these, the upgrade did.
INSERT INTO `gateway_assignments` (`id`, `group_id`, `gateway_id`, `region_id`, `created_by`, `created_at`)
SELECT 'gwa_' || upper(hex(randomblob(16))), `used`.`group_id`, `used`.`gateway_id`, NULL, NULL, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM (SELECT DISTINCT `networks`.`group_id` AS `group_id`, `nodes`.`gateway_id` AS `gateway_id`
      FROM `nodes` JOIN `networks` ON `networks`.`id` = `nodes`.`network_id`
      WHERE `nodes`.`is_gateway` = 1 AND `nodes`.`gateway_id` IS NOT NULL) AS `used`
WHERE NOT EXISTS (SELECT 1 FROM `gateway_assignments` AS `a`
                  WHERE `a`.`group_id` = `used`.`group_id` AND `a`.`gateway_id` = `used`.`gateway_id`);
