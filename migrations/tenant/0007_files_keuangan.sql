CREATE TABLE `files` (
	`id` text PRIMARY KEY NOT NULL,
	`purpose` text NOT NULL,
	`r2_key` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`sha256` text NOT NULL,
	`uploaded_by` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `files_r2_key_uq` ON `files` (`r2_key`);--> statement-breakpoint
CREATE INDEX `files_uploader_idx` ON `files` (`uploaded_by`,`id`);--> statement-breakpoint
CREATE INDEX `files_purpose_idx` ON `files` (`purpose`,`id`);--> statement-breakpoint
CREATE TABLE `budget_lines` (
	`id` text PRIMARY KEY NOT NULL,
	`year` integer NOT NULL,
	`category` text NOT NULL,
	`amount` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `budget_lines_year_category_uq` ON `budget_lines` (`year`,`category`);--> statement-breakpoint
CREATE TABLE `campaigns` (
	`id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`description` text NOT NULL,
	`target` integer NOT NULL,
	`deadline` text NOT NULL,
	`status` text NOT NULL,
	`cover_file_id` text,
	`created_by` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `campaigns_status_idx` ON `campaigns` (`status`,`id`);--> statement-breakpoint
CREATE TABLE `cash_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`category` text NOT NULL,
	`amount` integer NOT NULL,
	`date` text NOT NULL,
	`note` text NOT NULL,
	`source` text NOT NULL,
	`source_id` text,
	`reverses_id` text,
	`attachment_file_id` text,
	`created_by` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	CONSTRAINT "cash_entries_amount_positive" CHECK("cash_entries"."amount" > 0)
);
--> statement-breakpoint
CREATE INDEX `cash_entries_date_idx` ON `cash_entries` (`date`,`id`);--> statement-breakpoint
CREATE INDEX `cash_entries_category_date_idx` ON `cash_entries` (`category`,`date`);--> statement-breakpoint
CREATE UNIQUE INDEX `cash_entries_reverses_uq` ON `cash_entries` (`reverses_id`);--> statement-breakpoint
CREATE TABLE `donations` (
	`id` text PRIMARY KEY NOT NULL,
	`campaign_id` text NOT NULL,
	`donor_id` text,
	`donor_name` text,
	`anonymous` integer NOT NULL,
	`amount` integer NOT NULL,
	`note` text,
	`status` text NOT NULL,
	`recorded_by` text NOT NULL,
	`decided_by` text,
	`decided_at` text,
	`cash_entry_id` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `donations_campaign_idx` ON `donations` (`campaign_id`,`status`);--> statement-breakpoint
CREATE TABLE `dues_bills` (
	`id` text PRIMARY KEY NOT NULL,
	`type_id` text NOT NULL,
	`type_name` text NOT NULL,
	`period` text NOT NULL,
	`basis` text NOT NULL,
	`target_id` text NOT NULL,
	`unit_id` text NOT NULL,
	`family_id` text,
	`amount` integer NOT NULL,
	`paid_amount` integer DEFAULT 0 NOT NULL,
	`status` text NOT NULL,
	`last_payment_id` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL,
	CONSTRAINT "dues_bills_paid_le_amount" CHECK("dues_bills"."paid_amount" >= 0 AND "dues_bills"."paid_amount" <= "dues_bills"."amount")
);
--> statement-breakpoint
CREATE UNIQUE INDEX `dues_bills_type_period_target_uq` ON `dues_bills` (`type_id`,`period`,`target_id`);--> statement-breakpoint
CREATE INDEX `dues_bills_period_idx` ON `dues_bills` (`period`,`id`);--> statement-breakpoint
CREATE INDEX `dues_bills_unit_idx` ON `dues_bills` (`unit_id`,`period`);--> statement-breakpoint
CREATE INDEX `dues_bills_status_idx` ON `dues_bills` (`status`,`period`);--> statement-breakpoint
CREATE TABLE `dues_payments` (
	`id` text PRIMARY KEY NOT NULL,
	`bill_id` text NOT NULL,
	`amount` integer NOT NULL,
	`method` text NOT NULL,
	`paid_at` text NOT NULL,
	`gateway_order_id` text,
	`proof_file_id` text,
	`cash_entry_id` text NOT NULL,
	`recorded_by` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `dues_payments_bill_idx` ON `dues_payments` (`bill_id`);--> statement-breakpoint
CREATE INDEX `dues_payments_paid_at_idx` ON `dues_payments` (`paid_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `dues_payments_order_uq` ON `dues_payments` (`gateway_order_id`);--> statement-breakpoint
CREATE TABLE `dues_reminders` (
	`unit_id` text PRIMARY KEY NOT NULL,
	`requested_at` text NOT NULL,
	`send_after` text NOT NULL,
	`sent_at` text
);
--> statement-breakpoint
CREATE INDEX `dues_reminders_pending_idx` ON `dues_reminders` (`sent_at`,`send_after`);--> statement-breakpoint
CREATE TABLE `dues_types` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`basis` text NOT NULL,
	`start_period` text NOT NULL,
	`active` integer NOT NULL,
	`rates` text NOT NULL,
	`exempt_unit_ids` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `expenses` (
	`id` text PRIMARY KEY NOT NULL,
	`category` text NOT NULL,
	`amount` integer NOT NULL,
	`date` text NOT NULL,
	`description` text NOT NULL,
	`status` text NOT NULL,
	`reason` text,
	`receipt_file_id` text,
	`submitted_by` text NOT NULL,
	`decided_by` text,
	`decided_at` text,
	`cash_entry_id` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `expenses_status_idx` ON `expenses` (`status`,`id`);--> statement-breakpoint
CREATE TABLE `finance_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`transparansi` integer NOT NULL,
	`expense_approval_threshold` integer NOT NULL,
	`updated_at` text NOT NULL,
	`updated_by` text
);
