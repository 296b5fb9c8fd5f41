CREATE TABLE `letter_verifications` (
	`code_hash` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`letter_id` text NOT NULL,
	`tenant_name` text NOT NULL,
	`nomor_surat` text NOT NULL,
	`jenis_name` text NOT NULL,
	`tanggal_surat` text NOT NULL,
	`subject_name` text NOT NULL,
	`signatory_name` text NOT NULL,
	`signatory_title` text NOT NULL,
	`rw_status` text,
	`rw_name` text,
	`rw_title` text,
	`rw_day` text,
	`valid_until` text NOT NULL,
	`kept_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `letter_verifications_valid_idx` ON `letter_verifications` (`valid_until`);--> statement-breakpoint
CREATE INDEX `letter_verifications_tenant_idx` ON `letter_verifications` (`tenant_id`);