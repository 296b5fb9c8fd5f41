ALTER TABLE `support_tickets` ADD `notification_failed` integer DEFAULT false NOT NULL;--> statement-breakpoint
-- Before this column, notification_pending meant exactly "an email could not be handed to the notification service".
UPDATE `support_tickets` SET `notification_failed` = `notification_pending`;
