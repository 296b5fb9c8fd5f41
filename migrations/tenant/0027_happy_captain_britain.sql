PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_corrections` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`unit_id` text,
	`member_id` text,
	`field` text NOT NULL,
	`value` text NOT NULL,
	`note` text,
	`status` text DEFAULT 'diajukan' NOT NULL,
	`reason` text,
	`decided_by` text,
	`decided_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_corrections`("id", "user_id", "unit_id", "member_id", "field", "value", "note", "status", "reason", "decided_by", "decided_at", "created_at") SELECT "id", "user_id", "unit_id", "member_id", "field", "value", "note", "status", "reason", "decided_by", "decided_at", "created_at" FROM `corrections`;--> statement-breakpoint
DROP TABLE `corrections`;--> statement-breakpoint
ALTER TABLE `__new_corrections` RENAME TO `corrections`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `corrections_status_idx` ON `corrections` (`status`,`id`);--> statement-breakpoint
CREATE INDEX `corrections_user_idx` ON `corrections` (`user_id`,`id`);