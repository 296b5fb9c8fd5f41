DROP INDEX `dues_balances_period_idx`;--> statement-breakpoint
CREATE INDEX `dues_balances_period_idx` ON `dues_balances` (`period`,`unit_id`,`outstanding`);--> statement-breakpoint
DROP INDEX `dues_bills_period_idx`;--> statement-breakpoint
CREATE INDEX `dues_bills_period_idx` ON `dues_bills` (`period`,`id`,`amount`,`paid_amount`);--> statement-breakpoint
DROP INDEX `dues_payments_paid_at_idx`;--> statement-breakpoint
CREATE INDEX `dues_payments_paid_at_idx` ON `dues_payments` (`paid_at`,`amount`);