ALTER TABLE `dues_payments` ADD `reversed_at` text;--> statement-breakpoint
ALTER TABLE `dues_payments` ADD `reversed_by` text;--> statement-breakpoint
ALTER TABLE `dues_payments` ADD `reversal_reason` text;--> statement-breakpoint
ALTER TABLE `dues_payments` ADD `reversal_entry_id` text;--> statement-breakpoint
CREATE INDEX `dues_payments_reversed_at_idx` ON `dues_payments` (`reversed_at`);