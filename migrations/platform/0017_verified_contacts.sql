CREATE TABLE `contact_codes` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`channel` text NOT NULL,
	`contact` text NOT NULL,
	`code_hash` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `contact_codes_user_idx` ON `contact_codes` (`user_id`,`channel`);--> statement-breakpoint
DROP INDEX `users_whatsapp_uq`;--> statement-breakpoint
ALTER TABLE `users` ADD `email_verified_at` text;--> statement-breakpoint
ALTER TABLE `users` ADD `whatsapp_verified_at` text;--> statement-breakpoint
CREATE UNIQUE INDEX `users_whatsapp_verified_uq` ON `users` (`whatsapp`) WHERE "users"."whatsapp_verified_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `users_whatsapp_idx` ON `users` (`whatsapp`);--> statement-breakpoint
-- Existing contacts start unproven (issue 44), with two exceptions that were proven by the only way
-- such an account could get a password: a set-password link sent to its email, or, for an account
-- without email, to its number. Without them, residents who sign in by number would be locked out.
UPDATE `users` SET `email_verified_at` = `updated_at` WHERE `email` IS NOT NULL AND `password_hash` IS NOT NULL;--> statement-breakpoint
UPDATE `users` SET `whatsapp_verified_at` = `updated_at` WHERE `whatsapp` IS NOT NULL AND `email` IS NULL AND `password_hash` IS NOT NULL;
