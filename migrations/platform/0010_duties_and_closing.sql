DROP INDEX `memberships_tenant_role_idx`;--> statement-breakpoint
ALTER TABLE `memberships` ADD `roles` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `memberships` ADD `person_id` text;--> statement-breakpoint
UPDATE `memberships` SET `roles` = CASE WHEN `role` = 'warga' THEN '[]' ELSE json_array(`role`) END;--> statement-breakpoint
CREATE UNIQUE INDEX `memberships_tenant_person_uq` ON `memberships` (`tenant_id`,`person_id`);--> statement-breakpoint
ALTER TABLE `memberships` DROP COLUMN `role`;--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_tenants` (
	`id` text PRIMARY KEY NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`parent_id` text,
	`linked_at` text,
	`flags` text NOT NULL,
	`slot` integer,
	`status` text NOT NULL,
	`parent_request_id` text,
	`parent_requested_at` text,
	`closed_at` text,
	`subscription_status` text DEFAULT 'trial' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_tenants`("id", "slug", "name", "type", "parent_id", "linked_at", "flags", "slot", "status", "parent_request_id", "parent_requested_at", "closed_at", "subscription_status", "created_at", "updated_at") SELECT "id", "slug", "name", "type", "parent_id", "linked_at", "flags", "slot", "status", NULL, NULL, NULL, "subscription_status", "created_at", "updated_at" FROM `tenants`;--> statement-breakpoint
DROP TABLE `tenants`;--> statement-breakpoint
ALTER TABLE `__new_tenants` RENAME TO `tenants`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `tenants_slug_uq` ON `tenants` (`slug`);--> statement-breakpoint
CREATE UNIQUE INDEX `tenants_slot_uq` ON `tenants` (`slot`);--> statement-breakpoint
CREATE INDEX `tenants_parent_idx` ON `tenants` (`parent_id`);