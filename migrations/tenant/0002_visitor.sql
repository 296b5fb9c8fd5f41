CREATE TABLE `gate_events` (
	`id` text PRIMARY KEY NOT NULL,
	`device_id` text NOT NULL,
	`kind` text NOT NULL,
	`direction` text,
	`visitor_id` text,
	`action` text NOT NULL,
	`reason` text NOT NULL,
	`occurred_at` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `gate_events_device_idx` ON `gate_events` (`device_id`,`id`);--> statement-breakpoint
CREATE TABLE `visitors` (
	`id` text PRIMARY KEY NOT NULL,
	`resident_id` text NOT NULL,
	`unit_id` text,
	`guest_name` text NOT NULL,
	`purpose` text NOT NULL,
	`visit_at` text NOT NULL,
	`vehicle_plate` text,
	`identity` text,
	`status` text NOT NULL,
	`note` text,
	`decided_by` text,
	`decided_at` text,
	`pass_valid_from` text,
	`pass_valid_until` text,
	`notified_at` text,
	`checked_in_at` text,
	`checked_in_by` text,
	`checked_out_at` text,
	`checked_out_by` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `visitors_status_visit_idx` ON `visitors` (`status`,`visit_at`);--> statement-breakpoint
CREATE INDEX `visitors_resident_idx` ON `visitors` (`resident_id`,`id`);--> statement-breakpoint
CREATE INDEX `visitors_inside_idx` ON `visitors` (`checked_in_at`,`checked_out_at`);