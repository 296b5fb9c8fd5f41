CREATE TABLE `membership_changes` (
	`membership_id` text PRIMARY KEY NOT NULL,
	`roles` text NOT NULL,
	`unit_id` text,
	`removed` integer DEFAULT 0 NOT NULL,
	`membership_version` integer NOT NULL,
	`at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `membership_changes_at_idx` ON `membership_changes` (`at`);--> statement-breakpoint
-- The feed of changed memberships (core/auth/liveness.ts, ADR 0043): the row as it stands whenever its
-- row_version moves (the memberships_row_version trigger's own UPDATE fires this one, so the version is the
-- new one), and a removal when the row is deleted, stamped by the database's clock; entries older than a
-- day are dropped here.
CREATE TRIGGER `memberships_change_feed` AFTER UPDATE ON `memberships` WHEN NEW.`row_version` > OLD.`row_version` BEGIN INSERT OR REPLACE INTO `membership_changes` (`membership_id`, `roles`, `unit_id`, `removed`, `membership_version`, `at`) VALUES (NEW.`id`, NEW.`roles`, NEW.`unit_id`, 0, NEW.`row_version`, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); DELETE FROM `membership_changes` WHERE `at` < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day'); END;
--> statement-breakpoint
CREATE TRIGGER `memberships_removal_feed` AFTER DELETE ON `memberships` BEGIN INSERT OR REPLACE INTO `membership_changes` (`membership_id`, `roles`, `unit_id`, `removed`, `membership_version`, `at`) VALUES (OLD.`id`, OLD.`roles`, OLD.`unit_id`, 1, OLD.`row_version` + 1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); DELETE FROM `membership_changes` WHERE `at` < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day'); END;
