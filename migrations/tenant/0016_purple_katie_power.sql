CREATE TABLE `cash_months` (
	`month` text NOT NULL,
	`category` text NOT NULL,
	`income` integer NOT NULL,
	`expense` integer NOT NULL,
	`entries` integer NOT NULL,
	PRIMARY KEY(`month`, `category`)
);
--> statement-breakpoint
-- The cash book's month totals (ADR 0028) for the entries booked before this migration.
INSERT INTO `cash_months` (`month`, `category`, `income`, `expense`, `entries`)
SELECT substr(`date`, 1, 7), `category`,
  sum(CASE WHEN `kind` = 'masuk' THEN `amount` ELSE 0 END),
  sum(CASE WHEN `kind` = 'keluar' THEN `amount` ELSE 0 END),
  count(*)
FROM `cash_entries` GROUP BY substr(`date`, 1, 7), `category`;
--> statement-breakpoint
DROP INDEX `cash_entries_date_idx`;--> statement-breakpoint
DROP INDEX `cash_entries_category_date_idx`;--> statement-breakpoint
CREATE INDEX `cash_entries_date_idx` ON `cash_entries` (`date`,`id`,`kind`,`amount`);--> statement-breakpoint
CREATE INDEX `cash_entries_category_date_idx` ON `cash_entries` (`category`,`date`,`kind`,`amount`);--> statement-breakpoint
DROP INDEX `dues_bills_status_idx`;--> statement-breakpoint
CREATE INDEX `dues_bills_status_idx` ON `dues_bills` (`status`,`id`);