CREATE TABLE `idempotency_keys` (
	`scope` text NOT NULL,
	`key` text NOT NULL,
	`actor_id` text NOT NULL,
	`request_hash` text NOT NULL,
	`state` text NOT NULL,
	`owner` text NOT NULL,
	`locked_until` text NOT NULL,
	`status` integer,
	`headers` text,
	`body` text,
	`created_at` text NOT NULL,
	PRIMARY KEY(`scope`, `key`)
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_created_idx` ON `idempotency_keys` (`created_at`);--> statement-breakpoint
CREATE TABLE `dues_balances` (
	`target_id` text NOT NULL,
	`period` text NOT NULL,
	`basis` text NOT NULL,
	`unit_id` text NOT NULL,
	`family_id` text,
	`outstanding` integer NOT NULL,
	`open_bills` integer NOT NULL,
	PRIMARY KEY(`unit_id`, `period`, `target_id`)
);
--> statement-breakpoint
CREATE INDEX `dues_balances_period_idx` ON `dues_balances` (`period`);--> statement-breakpoint
ALTER TABLE `expenses` ADD `submitted_by_head` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `expenses_submitter_idx` ON `expenses` (`submitted_by`,`decided_at`);--> statement-breakpoint
-- Backfill (written by hand, ADR 0028): the kept dues balances from the bills already issued.
INSERT INTO `dues_balances` (`target_id`, `period`, `basis`, `unit_id`, `family_id`, `outstanding`, `open_bills`)
SELECT `target_id`, `period`, max(`basis`), `unit_id`, max(`family_id`), sum(`amount` - `paid_amount`), count(*)
FROM `dues_bills` WHERE `status` IN ('belum', 'sebagian') GROUP BY `unit_id`, `period`, `target_id`;
