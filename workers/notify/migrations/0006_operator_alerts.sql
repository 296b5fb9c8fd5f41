CREATE TABLE `operator_alerts` (
	`cause` text NOT NULL,
	`hour` text NOT NULL,
	`channel` text NOT NULL,
	`provider` text NOT NULL,
	`kind` text NOT NULL,
	`status` text NOT NULL,
	`error` text NOT NULL,
	`count` integer DEFAULT 1 NOT NULL,
	`first_at` text NOT NULL,
	`last_at` text NOT NULL,
	`last_message_id` text NOT NULL,
	`email_message_id` text,
	PRIMARY KEY(`cause`, `hour`)
);
--> statement-breakpoint
CREATE INDEX `operator_alerts_last_idx` ON `operator_alerts` (`last_at`);