-- Reply tokens are kept only as their SHA-256 from now on. Every row got its hash when it was created
-- (NOT NULL, UNIQUE since 0003); the guard below makes the migration fail, leaving the clear column in
-- place, should any row hold something other than a SHA-256 hex digest.
CREATE TABLE `_reply_hash_guard` (`missing` integer NOT NULL CHECK (`missing` = 0));
--> statement-breakpoint
INSERT INTO `_reply_hash_guard` SELECT COUNT(*) FROM `support_tickets` WHERE length(`reply_token_hash`) <> 64 OR `reply_token_hash` GLOB '*[^0-9a-f]*';
--> statement-breakpoint
DROP TABLE `_reply_hash_guard`;
--> statement-breakpoint
ALTER TABLE `support_tickets` DROP COLUMN `reply_token`;
