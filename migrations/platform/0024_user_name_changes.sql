CREATE TABLE `user_name_changes` (
	`user_id` text PRIMARY KEY NOT NULL,
	`at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `user_name_changes_at_idx` ON `user_name_changes` (`at`);--> statement-breakpoint
-- The feed of renamed accounts (core/auth/liveness.ts, ADR 0053): the id whenever `name` changes, by any
-- statement, and when the row is deleted, stamped by the database's clock; entries older than a day are
-- dropped here. No name is recorded, only that it changed.
CREATE TRIGGER `users_name_feed` AFTER UPDATE OF `name` ON `users` WHEN NEW.`name` IS NOT OLD.`name` BEGIN INSERT OR REPLACE INTO `user_name_changes` (`user_id`, `at`) VALUES (NEW.`id`, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); DELETE FROM `user_name_changes` WHERE `at` < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day'); END;
--> statement-breakpoint
CREATE TRIGGER `users_removal_name_feed` AFTER DELETE ON `users` BEGIN INSERT OR REPLACE INTO `user_name_changes` (`user_id`, `at`) VALUES (OLD.`id`, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); DELETE FROM `user_name_changes` WHERE `at` < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day'); END;
