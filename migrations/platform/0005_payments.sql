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
ALTER TABLE `tenants` ADD `subscription_status` text DEFAULT 'trial' NOT NULL;