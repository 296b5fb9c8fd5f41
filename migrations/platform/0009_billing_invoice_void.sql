ALTER TABLE `billing_invoices` ADD `voided_at` text;--> statement-breakpoint
ALTER TABLE `billing_invoices` ADD `voided_by` text;--> statement-breakpoint
ALTER TABLE `billing_invoices` ADD `void_reason` text;