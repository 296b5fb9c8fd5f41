CREATE TABLE `precondition_checks` (
	`id` integer PRIMARY KEY NOT NULL,
	`ok` integer NOT NULL,
	CONSTRAINT "precondition_failed" CHECK("precondition_checks"."ok" = 1)
);
--> statement-breakpoint
ALTER TABLE `memberships` ADD `row_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
-- Every UPDATE moves row_version (core/db/row-version.ts, ADR 0035), as in every versioned table.
CREATE TRIGGER `memberships_row_version` AFTER UPDATE ON `memberships` WHEN NEW.`row_version` <= OLD.`row_version` BEGIN UPDATE `memberships` SET `row_version` = OLD.`row_version` + 1 WHERE rowid = NEW.rowid; END;
