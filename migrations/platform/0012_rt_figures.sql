CREATE TABLE `rt_figures` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`residents` integer NOT NULL,
	`dues_arrears_amount` integer NOT NULL,
	`dues_arrears_units` integer NOT NULL,
	`letters_awaiting_processing` integer NOT NULL,
	`complaints_open` integer NOT NULL,
	`computed_at` text NOT NULL
);
