CREATE TABLE `asisten_info` (
	`id` text PRIMARY KEY NOT NULL,
	`rules` text DEFAULT '' NOT NULL,
	`agenda` text DEFAULT '' NOT NULL,
	`updated_at` text NOT NULL,
	`updated_by` text
);
--> statement-breakpoint
CREATE TABLE `asisten_usage` (
	`user_id` text NOT NULL,
	`day` text NOT NULL,
	`requests` integer DEFAULT 0 NOT NULL,
	`tokens` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `day`)
);
