CREATE TABLE `billing_invoices` (
	`id` text PRIMARY KEY NOT NULL,
	`number` text NOT NULL,
	`year` integer NOT NULL,
	`seq` integer NOT NULL,
	`tenant_id` text NOT NULL,
	`plan_code` text NOT NULL,
	`months` integer NOT NULL,
	`amount` integer NOT NULL,
	`note` text,
	`due_at` text NOT NULL,
	`status` text NOT NULL,
	`order_id` text,
	`payment_url` text,
	`payment_reference` text,
	`paid_at` text,
	`reminded_at_7` text,
	`reminded_at_1` text,
	`history` text NOT NULL,
	`issued_by` text,
	`write_id` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL,
	CONSTRAINT "billing_invoices_amount_ck" CHECK("billing_invoices"."amount" > 0),
	CONSTRAINT "billing_invoices_months_ck" CHECK("billing_invoices"."months" BETWEEN 1 AND 36)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `billing_invoices_year_seq_uq` ON `billing_invoices` (`year`,`seq`);--> statement-breakpoint
CREATE UNIQUE INDEX `billing_invoices_number_uq` ON `billing_invoices` (`number`);--> statement-breakpoint
CREATE UNIQUE INDEX `billing_invoices_order_uq` ON `billing_invoices` (`order_id`);--> statement-breakpoint
CREATE INDEX `billing_invoices_tenant_idx` ON `billing_invoices` (`tenant_id`,`id`);--> statement-breakpoint
CREATE INDEX `billing_invoices_status_due_idx` ON `billing_invoices` (`status`,`due_at`);--> statement-breakpoint
CREATE TABLE `billing_plans` (
	`code` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`price_per_month` integer NOT NULL,
	`max_residents` integer,
	`description` text DEFAULT '' NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL,
	CONSTRAINT "billing_plans_price_ck" CHECK("billing_plans"."price_per_month" > 0)
);
--> statement-breakpoint
CREATE TABLE `billing_subscriptions` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`plan_code` text NOT NULL,
	`status` text NOT NULL,
	`active_until` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL
);
