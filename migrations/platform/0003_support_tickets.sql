CREATE TABLE `support_files` (
	`id` text PRIMARY KEY NOT NULL,
	`scope` text NOT NULL,
	`tenant_id` text,
	`uploaded_by` text,
	`r2_key` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`filename` text,
	`ticket_id` text,
	`message_id` text,
	`attached_at` text,
	`attach_id` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `support_files_key_uq` ON `support_files` (`r2_key`);--> statement-breakpoint
CREATE INDEX `support_files_ticket_idx` ON `support_files` (`ticket_id`,`message_id`);--> statement-breakpoint
CREATE TABLE `support_ticket_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`ticket_id` text NOT NULL,
	`author` text NOT NULL,
	`via` text NOT NULL,
	`author_user_id` text,
	`author_name` text NOT NULL,
	`message` text NOT NULL,
	`email_message_id` text,
	`status_change` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `support_ticket_messages_ticket_idx` ON `support_ticket_messages` (`ticket_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `support_ticket_messages_email_uq` ON `support_ticket_messages` (`email_message_id`);--> statement-breakpoint
CREATE TABLE `support_tickets` (
	`id` text PRIMARY KEY NOT NULL,
	`number` integer NOT NULL,
	`tenant_id` text,
	`tenant_slug` text,
	`source` text NOT NULL,
	`category` text NOT NULL,
	`title` text NOT NULL,
	`detail` text NOT NULL,
	`attachment_file_id` text,
	`status` text NOT NULL,
	`reply_token` text NOT NULL,
	`reply_token_hash` text NOT NULL,
	`submitter_user_id` text,
	`submitter_name` text NOT NULL,
	`submitter_email` text,
	`submitter_phone` text,
	`notification_pending` integer DEFAULT false NOT NULL,
	`write_id` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `support_tickets_number_uq` ON `support_tickets` (`number`);--> statement-breakpoint
CREATE UNIQUE INDEX `support_tickets_reply_hash_uq` ON `support_tickets` (`reply_token_hash`);--> statement-breakpoint
CREATE INDEX `support_tickets_tenant_created_idx` ON `support_tickets` (`tenant_id`,`created_at`,`id`,`status`);--> statement-breakpoint
CREATE INDEX `support_tickets_slug_created_idx` ON `support_tickets` (`tenant_slug`,`created_at`,`id`,`status`);--> statement-breakpoint
CREATE INDEX `support_tickets_status_created_idx` ON `support_tickets` (`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `support_tickets_created_idx` ON `support_tickets` (`created_at`,`id`,`status`);