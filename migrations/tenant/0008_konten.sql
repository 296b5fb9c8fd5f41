CREATE TABLE `agenda` (
	`id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`description` text NOT NULL,
	`place` text NOT NULL,
	`starts_at` text NOT NULL,
	`ends_at` text NOT NULL,
	`author_id` text NOT NULL,
	`reminded_for` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `agenda_starts_idx` ON `agenda` (`starts_at`,`id`);--> statement-breakpoint
CREATE INDEX `agenda_ends_idx` ON `agenda` (`ends_at`);--> statement-breakpoint
CREATE TABLE `berita` (
	`id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`body` text NOT NULL,
	`body_html` text NOT NULL,
	`cover_file_id` text,
	`status` text NOT NULL,
	`author_id` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`notified_version` integer,
	`published_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `berita_status_idx` ON `berita` (`status`,`id`);--> statement-breakpoint
CREATE TABLE `pengumuman` (
	`id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`body` text NOT NULL,
	`body_html` text NOT NULL,
	`urgent` integer DEFAULT false NOT NULL,
	`channels` text NOT NULL,
	`blocks` text,
	`status` text NOT NULL,
	`author_id` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`notified_version` integer,
	`published_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `pengumuman_status_idx` ON `pengumuman` (`status`,`id`);