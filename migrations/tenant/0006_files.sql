CREATE TABLE `files` (
	`id` text PRIMARY KEY NOT NULL,
	`purpose` text NOT NULL,
	`r2_key` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`sha256` text NOT NULL,
	`uploaded_by` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `files_r2_key_uq` ON `files` (`r2_key`);--> statement-breakpoint
CREATE INDEX `files_uploader_idx` ON `files` (`uploaded_by`,`id`);--> statement-breakpoint
CREATE INDEX `files_purpose_idx` ON `files` (`purpose`,`id`);