CREATE TABLE `payment_callbacks` (
	`id` text PRIMARY KEY NOT NULL,
	`gateway` text NOT NULL,
	`order_id` text,
	`raw` text NOT NULL,
	`verified` integer NOT NULL,
	`claimed_status` text,
	`confirmed_status` text,
	`outcome` text NOT NULL,
	`received_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `payment_callbacks_order_idx` ON `payment_callbacks` (`order_id`,`id`);--> statement-breakpoint
CREATE TABLE `payment_orders` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`tenant_id` text NOT NULL,
	`tenant_slug` text NOT NULL,
	`ref_id` text NOT NULL,
	`amount` integer NOT NULL,
	`description` text NOT NULL,
	`gateway` text NOT NULL,
	`gateway_ref` text,
	`payment_url` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`gateway_status` text,
	`payment_reference` text,
	`expires_at` text NOT NULL,
	`paid_at` text,
	`reversed_at` text,
	`applied_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `payment_orders_ref_idx` ON `payment_orders` (`kind`,`ref_id`);--> statement-breakpoint
CREATE INDEX `payment_orders_tenant_idx` ON `payment_orders` (`tenant_id`,`id`);--> statement-breakpoint
CREATE INDEX `payment_orders_status_idx` ON `payment_orders` (`status`,`id`);--> statement-breakpoint
CREATE TABLE `payment_simulations` (
	`order_id` text PRIMARY KEY NOT NULL,
	`gross_amount` integer NOT NULL,
	`transaction_status` text NOT NULL,
	`transaction_id` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
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
--> statement-breakpoint
ALTER TABLE `tenants` ADD `subscription_status` text DEFAULT 'trial' NOT NULL;