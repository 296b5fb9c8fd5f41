CREATE TABLE `poll_voters` (
	`poll_id` text NOT NULL,
	`voter_key` text NOT NULL,
	`user_id` text NOT NULL,
	`voted_at` text NOT NULL,
	PRIMARY KEY(`poll_id`, `voter_key`)
);
--> statement-breakpoint
CREATE TABLE `polls` (
	`id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`description` text,
	`options` text NOT NULL,
	`starts_at` text NOT NULL,
	`ends_at` text NOT NULL,
	`status` text NOT NULL,
	`quorum_kind` text,
	`quorum_value` integer,
	`anonymous` integer NOT NULL,
	`multiple_choice` integer NOT NULL,
	`max_choices` integer NOT NULL,
	`voter_scope` text NOT NULL,
	`results_visibility` text NOT NULL,
	`eligible_voters` integer,
	`results` text DEFAULT '{}' NOT NULL,
	`ballots` integer DEFAULT 0 NOT NULL,
	`results_seq` integer DEFAULT 0 NOT NULL,
	`created_by` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL,
	`opened_at` text,
	`closed_at` text
);
--> statement-breakpoint
CREATE INDEX `polls_status_idx` ON `polls` (`status`);