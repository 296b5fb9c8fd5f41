CREATE TABLE `preferences` (
	`user_id` text PRIMARY KEY NOT NULL,
	`push` integer NOT NULL,
	`whatsapp` integer NOT NULL,
	`email` integer NOT NULL,
	`quiet_start` text NOT NULL,
	`quiet_end` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `messages` ADD `reference` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `user_id` text;--> statement-breakpoint
CREATE INDEX `messages_reference_idx` ON `messages` (`reference`,`channel`,`status`);