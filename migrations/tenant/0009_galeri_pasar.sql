CREATE TABLE `gallery_albums` (
	`id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`description` text,
	`event_date` text,
	`created_by` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `gallery_photos` (
	`id` text PRIMARY KEY NOT NULL,
	`album_id` text NOT NULL,
	`caption` text,
	`created_by` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `gallery_photos_album_idx` ON `gallery_photos` (`album_id`,`id`);--> statement-breakpoint
CREATE TABLE `pasar_listings` (
	`id` text PRIMARY KEY NOT NULL,
	`seller_id` text NOT NULL,
	`title` text NOT NULL,
	`description` text NOT NULL,
	`price` integer,
	`category` text NOT NULL,
	`condition` text,
	`status` text NOT NULL,
	`moderation_reason` text,
	`moderated_by` text,
	`moderated_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `pasar_listings_status_idx` ON `pasar_listings` (`status`,`id`);--> statement-breakpoint
CREATE INDEX `pasar_listings_category_idx` ON `pasar_listings` (`status`,`category`,`id`);--> statement-breakpoint
CREATE INDEX `pasar_listings_seller_idx` ON `pasar_listings` (`seller_id`,`id`);--> statement-breakpoint
CREATE TABLE `pasar_photos` (
	`file_id` text PRIMARY KEY NOT NULL,
	`listing_id` text NOT NULL,
	`position` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pasar_photos_listing_position_uq` ON `pasar_photos` (`listing_id`,`position`);