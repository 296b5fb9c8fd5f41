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
CREATE INDEX `visitors_unit_idx` ON `visitors` (`unit_id`,`id`);