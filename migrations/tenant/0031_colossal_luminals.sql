CREATE TABLE `regular_visitors` (
	`id` text PRIMARY KEY NOT NULL,
	`resident_id` text NOT NULL,
	`unit_id` text NOT NULL,
	`name` text NOT NULL,
	`role` text NOT NULL,
	`vehicle_plate` text,
	`days` text NOT NULL,
	`from_time` text NOT NULL,
	`until_time` text NOT NULL,
	`valid_until` text,
	`revoked_at` text,
	`revoked_by` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `regular_visitors_unit_idx` ON `regular_visitors` (`unit_id`,`id`);--> statement-breakpoint
ALTER TABLE `visitors` ADD `regular_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `visitors_regular_inside_uq` ON `visitors` (`regular_id`) WHERE regular_id IS NOT NULL AND checked_out_at IS NULL;