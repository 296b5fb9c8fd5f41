CREATE TABLE `corrections` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`unit_id` text NOT NULL,
	`member_id` text,
	`field` text NOT NULL,
	`value` text NOT NULL,
	`note` text,
	`status` text DEFAULT 'diajukan' NOT NULL,
	`reason` text,
	`decided_by` text,
	`decided_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `corrections_status_idx` ON `corrections` (`status`,`id`);--> statement-breakpoint
CREATE INDEX `corrections_user_idx` ON `corrections` (`user_id`,`id`);--> statement-breakpoint
CREATE TABLE `mutations` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`date` text NOT NULL,
	`family_card_id` text NOT NULL,
	`member_id` text,
	`person_name` text NOT NULL,
	`place` text,
	`note` text,
	`recorded_by` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mutations_date_idx` ON `mutations` (`date`,`id`);--> statement-breakpoint
CREATE INDEX `mutations_card_idx` ON `mutations` (`family_card_id`);--> statement-breakpoint
CREATE TABLE `vehicles` (
	`id` text PRIMARY KEY NOT NULL,
	`family_card_id` text NOT NULL,
	`plate` text NOT NULL,
	`kind` text NOT NULL,
	`brand` text,
	`model` text,
	`colour` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `vehicles_plate_uq` ON `vehicles` (`plate`);--> statement-breakpoint
CREATE INDEX `vehicles_card_idx` ON `vehicles` (`family_card_id`,`id`);--> statement-breakpoint
ALTER TABLE `family_cards` ADD `status` text DEFAULT 'aktif' NOT NULL;--> statement-breakpoint
ALTER TABLE `family_cards` ADD `status_date` text;--> statement-breakpoint
ALTER TABLE `family_cards` ADD `notes` text;--> statement-breakpoint
CREATE INDEX `family_cards_status_idx` ON `family_cards` (`status`);--> statement-breakpoint
ALTER TABLE `family_members` ADD `religion` text;--> statement-breakpoint
ALTER TABLE `family_members` ADD `education` text;--> statement-breakpoint
ALTER TABLE `family_members` ADD `occupation` text;--> statement-breakpoint
ALTER TABLE `family_members` ADD `marital_status` text;--> statement-breakpoint
ALTER TABLE `family_members` ADD `citizenship` text DEFAULT 'WNI' NOT NULL;--> statement-breakpoint
ALTER TABLE `family_members` ADD `living_status` text DEFAULT 'hidup' NOT NULL;--> statement-breakpoint
ALTER TABLE `family_members` ADD `death_date` text;--> statement-breakpoint
ALTER TABLE `family_members` ADD `residence_status` text;--> statement-breakpoint
CREATE INDEX `family_members_name_idx` ON `family_members` (`name`,`family_card_id`);--> statement-breakpoint
ALTER TABLE `units` ADD `occupancy` text;