CREATE TABLE `visitor_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`require_vehicle_plate` integer NOT NULL,
	`require_identity` integer NOT NULL,
	`updated_at` text NOT NULL,
	`updated_by` text
);
