ALTER TABLE `dues_bills` ADD `moved_out_family_id` text;--> statement-breakpoint
ALTER TABLE `finance_settings` ADD `bill_empty_units` integer DEFAULT false NOT NULL;