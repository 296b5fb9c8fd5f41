CREATE TABLE `rt_link_asks` (
	`id` text PRIMARY KEY NOT NULL,
	`rw_id` text NOT NULL,
	`rt_id` text NOT NULL,
	`kind` text NOT NULL,
	`at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `rt_link_asks_rw_idx` ON `rt_link_asks` (`rw_id`,`at`);