DROP INDEX `family_members_stats_idx`;--> statement-breakpoint
CREATE INDEX `visitors_status_id_idx` ON `visitors` (`status`,`id`);