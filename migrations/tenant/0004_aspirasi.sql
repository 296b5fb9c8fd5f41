CREATE TABLE `complaint_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`complaint_id` text NOT NULL,
	`author_id` text NOT NULL,
	`by_staff` integer NOT NULL,
	`status` text,
	`body` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `complaint_messages_idx` ON `complaint_messages` (`complaint_id`,`id`);--> statement-breakpoint
CREATE TABLE `complaints` (
	`id` text PRIMARY KEY NOT NULL,
	`resident_id` text NOT NULL,
	`unit_id` text,
	`title` text NOT NULL,
	`description` text NOT NULL,
	`category` text NOT NULL,
	`photo` text,
	`location` text,
	`status` text NOT NULL,
	`revision` integer DEFAULT 1 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `complaints_status_idx` ON `complaints` (`status`,`id`);--> statement-breakpoint
CREATE INDEX `complaints_resident_idx` ON `complaints` (`resident_id`,`id`);--> statement-breakpoint
CREATE TABLE `proposal_endorsements` (
	`proposal_id` text NOT NULL,
	`user_id` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`proposal_id`, `user_id`)
);
--> statement-breakpoint
CREATE TABLE `proposals` (
	`id` text PRIMARY KEY NOT NULL,
	`resident_id` text NOT NULL,
	`title` text NOT NULL,
	`description` text NOT NULL,
	`estimated_cost` integer,
	`status` text NOT NULL,
	`note` text,
	`endorsements` integer DEFAULT 0 NOT NULL,
	`decided_by` text,
	`decided_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `proposals_status_idx` ON `proposals` (`status`,`id`);--> statement-breakpoint
CREATE TABLE `suggestions` (
	`id` text PRIMARY KEY NOT NULL,
	`sender_id` text,
	`anonymous` integer NOT NULL,
	`body` text NOT NULL,
	`read_at` text,
	`read_by` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `suggestions_read_idx` ON `suggestions` (`read_at`,`id`);