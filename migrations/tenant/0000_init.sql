CREATE TABLE `units` (
	`id` text PRIMARY KEY NOT NULL,
	`block` text NOT NULL,
	`number` text NOT NULL,
	`latitude` real,
	`longitude` real,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `units_block_number_uq` ON `units` (`block`,`number`);--> statement-breakpoint
CREATE INDEX `units_block_idx` ON `units` (`block`);