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
CREATE TABLE `visitor_passages` (
	`id` text PRIMARY KEY NOT NULL,
	`visitor_id` text NOT NULL,
	`direction` text NOT NULL,
	`at` text NOT NULL,
	`passed_by` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `visitor_passages_visitor_idx` ON `visitor_passages` (`visitor_id`,`at`);--> statement-breakpoint
ALTER TABLE `visitors` ADD `registered_by` text;--> statement-breakpoint
ALTER TABLE `visitors` ADD `category` text;--> statement-breakpoint
ALTER TABLE `visitors` ADD `stay_until` text;--> statement-breakpoint
ALTER TABLE `visitors` ADD `approval_method` text;--> statement-breakpoint
ALTER TABLE `visitors` ADD `multi_entry` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `visitors` ADD `regular_id` text;--> statement-breakpoint
CREATE INDEX `visitors_unit_idx` ON `visitors` (`unit_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `visitors_regular_inside_uq` ON `visitors` (`regular_id`) WHERE regular_id IS NOT NULL AND checked_out_at IS NULL;