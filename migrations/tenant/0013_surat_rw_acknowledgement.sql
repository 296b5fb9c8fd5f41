ALTER TABLE `letter_settings` ADD `village_kind` text;--> statement-breakpoint
ALTER TABLE `letter_settings` ADD `rw_acknowledgement` integer;--> statement-breakpoint
ALTER TABLE `letters` ADD `issued_as` text;--> statement-breakpoint
ALTER TABLE `letters` ADD `rw_ack_status` text;--> statement-breakpoint
ALTER TABLE `letters` ADD `rw_ack_by` text;--> statement-breakpoint
ALTER TABLE `letters` ADD `rw_ack_name` text;--> statement-breakpoint
ALTER TABLE `letters` ADD `rw_ack_title` text;--> statement-breakpoint
ALTER TABLE `letters` ADD `rw_ack_at` text;--> statement-breakpoint
ALTER TABLE `letters` ADD `rw_ack_note` text;--> statement-breakpoint
CREATE INDEX `letters_rw_ack_idx` ON `letters` (`rw_ack_status`,`id`);