CREATE TABLE `budget_years` (
	`year` integer PRIMARY KEY NOT NULL,
	`row_version` integer DEFAULT 1 NOT NULL,
	`updated_at` text NOT NULL
);

--> statement-breakpoint
-- Every UPDATE moves row_version (core/db/row-version.ts, ADR 0035), as in every versioned table.
CREATE TRIGGER `budget_years_row_version` AFTER UPDATE ON `budget_years` WHEN NEW.`row_version` <= OLD.`row_version` BEGIN UPDATE `budget_years` SET `row_version` = OLD.`row_version` + 1 WHERE rowid = NEW.rowid; END;
