CREATE TABLE `dues_unit_balances` (
	`unit_id` text PRIMARY KEY NOT NULL,
	`owed` integer NOT NULL,
	`open_bills` integer NOT NULL,
	`oldest_period` text NOT NULL,
	`newest_period` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `dues_unit_balances_owed_idx` ON `dues_unit_balances` (`owed`,`unit_id`);--> statement-breakpoint
-- Backfill (written by hand, ADR 0028, update of issue 32): each unit's totals from its kept slots.
INSERT INTO `dues_unit_balances` (`unit_id`, `owed`, `open_bills`, `oldest_period`, `newest_period`)
SELECT `unit_id`, sum(`outstanding`), sum(`open_bills`), min(`period`), max(`period`)
FROM `dues_balances` GROUP BY `unit_id`;
