DROP INDEX `dues_payments_order_uq`;--> statement-breakpoint
CREATE UNIQUE INDEX `dues_payments_order_bill_uq` ON `dues_payments` (`gateway_order_id`,`bill_id`);--> statement-breakpoint
ALTER TABLE `dues_types` ADD `due_day` integer DEFAULT 10 NOT NULL;