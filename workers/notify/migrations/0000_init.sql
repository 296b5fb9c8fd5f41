CREATE TABLE `devices` (
	`token` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`tenant` text NOT NULL,
	`platform` text NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`deactivated_at` text,
	`deactivation_reason` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `devices_user_idx` ON `devices` (`user_id`,`active`);--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`scope_key` text PRIMARY KEY NOT NULL,
	`request_hash` text NOT NULL,
	`message_ids` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `message_attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`message_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`started_at` text NOT NULL,
	`finished_at` text NOT NULL,
	`outcome` text NOT NULL,
	`provider_status` integer,
	`provider_response` text,
	`error` text
);
--> statement-breakpoint
CREATE INDEX `message_attempts_message_idx` ON `message_attempts` (`message_id`,`attempt`);--> statement-breakpoint
CREATE TABLE `messages` (
	`id` text PRIMARY KEY NOT NULL,
	`channel` text NOT NULL,
	`status` text NOT NULL,
	`recipient` text NOT NULL,
	`template` text,
	`subject` text,
	`payload` text NOT NULL,
	`batch_id` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`provider_message_id` text,
	`not_before` text,
	`lease_until` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`sent_at` text
);
--> statement-breakpoint
CREATE INDEX `messages_status_idx` ON `messages` (`status`,`id`);--> statement-breakpoint
CREATE INDEX `messages_channel_idx` ON `messages` (`channel`,`id`);--> statement-breakpoint
CREATE INDEX `messages_recipient_idx` ON `messages` (`recipient`,`id`);--> statement-breakpoint
CREATE INDEX `messages_created_idx` ON `messages` (`created_at`);--> statement-breakpoint
CREATE INDEX `messages_batch_idx` ON `messages` (`batch_id`);--> statement-breakpoint
CREATE TABLE `pacing` (
	`channel` text PRIMARY KEY NOT NULL,
	`next_slot_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `templates` (
	`code` text NOT NULL,
	`locale` text DEFAULT 'id' NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`subject` text NOT NULL,
	`html` text NOT NULL,
	`text` text NOT NULL,
	`variables` text DEFAULT '[]' NOT NULL,
	`sample_data` text DEFAULT '{}' NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`code`, `locale`)
);
