CREATE TABLE `tenant_archives` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`tenant_id` text NOT NULL,
	`tenant_slug` text NOT NULL,
	`status` text NOT NULL,
	`requested_by` text NOT NULL,
	`requested_as` text NOT NULL,
	`r2_key` text,
	`bytes` integer,
	`sha256` text,
	`summary` text,
	`source_archive_id` text,
	`error` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`lease_until` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`finished_at` text,
	`expires_at` text
);
--> statement-breakpoint
CREATE INDEX `tenant_archives_tenant_idx` ON `tenant_archives` (`tenant_id`,`id`);--> statement-breakpoint
CREATE INDEX `tenant_archives_status_idx` ON `tenant_archives` (`status`,`lease_until`);--> statement-breakpoint
CREATE UNIQUE INDEX `tenant_archives_export_uq` ON `tenant_archives` (`tenant_id`) WHERE "tenant_archives"."kind" = 'export' AND "tenant_archives"."status" IN ('queued', 'running');--> statement-breakpoint
CREATE UNIQUE INDEX `tenant_archives_import_uq` ON `tenant_archives` (`tenant_id`) WHERE "tenant_archives"."kind" = 'import' AND "tenant_archives"."status" = 'running';