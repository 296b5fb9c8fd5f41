CREATE TABLE `session_revocations` (
	`family_id` text PRIMARY KEY NOT NULL,
	`at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `session_revocations_at_idx` ON `session_revocations` (`at`);--> statement-breakpoint
-- The feed of ended sign-ins (core/auth/liveness.ts, ADR 0004): the family when a row of it first gets its
-- revoked_at, by any statement, stamped by the database's clock (once per family, however many rotation
-- rows one UPDATE revokes); entries older than a day are dropped here.
CREATE TRIGGER `sessions_revocation_feed` AFTER UPDATE OF `revoked_at` ON `sessions` WHEN OLD.`revoked_at` IS NULL AND NEW.`revoked_at` IS NOT NULL BEGIN INSERT OR IGNORE INTO `session_revocations` (`family_id`, `at`) VALUES (NEW.`family_id`, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); DELETE FROM `session_revocations` WHERE `at` < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day'); END;
