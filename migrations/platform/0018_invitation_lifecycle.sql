ALTER TABLE `one_time_tokens` ADD `tenant_id` text;--> statement-breakpoint
ALTER TABLE `one_time_tokens` ADD `invited_by` text;--> statement-breakpoint
ALTER TABLE `one_time_tokens` ADD `channel` text;--> statement-breakpoint
ALTER TABLE `one_time_tokens` ADD `retired_at` text;--> statement-breakpoint
ALTER TABLE `one_time_tokens` ADD `retired_reason` text;--> statement-breakpoint
CREATE INDEX `one_time_tokens_tenant_idx` ON `one_time_tokens` (`tenant_id`,`purpose`);