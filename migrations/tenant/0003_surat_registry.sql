CREATE TABLE `family_cards` (
	`id` text PRIMARY KEY NOT NULL,
	`kk_number` text NOT NULL,
	`unit_id` text NOT NULL,
	`head_name` text NOT NULL,
	`head_nik` text NOT NULL,
	`head_whatsapp` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `family_cards_kk_number_uq` ON `family_cards` (`kk_number`);--> statement-breakpoint
CREATE INDEX `family_cards_unit_idx` ON `family_cards` (`unit_id`);--> statement-breakpoint
CREATE TABLE `family_members` (
	`id` text PRIMARY KEY NOT NULL,
	`family_card_id` text NOT NULL,
	`name` text NOT NULL,
	`nik` text NOT NULL,
	`relationship` text NOT NULL,
	`sex` text NOT NULL,
	`birth_date` text,
	`birth_place` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `family_members_nik_uq` ON `family_members` (`nik`);--> statement-breakpoint
CREATE INDEX `family_members_card_idx` ON `family_members` (`family_card_id`,`id`);--> statement-breakpoint
CREATE TABLE `letter_events` (
	`id` text PRIMARY KEY NOT NULL,
	`letter_id` text NOT NULL,
	`status` text NOT NULL,
	`note` text,
	`actor_id` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `letter_events_letter_idx` ON `letter_events` (`letter_id`,`id`);--> statement-breakpoint
CREATE TABLE `letter_sequences` (
	`year` integer PRIMARY KEY NOT NULL,
	`last` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `letter_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`rt` text,
	`rw` text,
	`kelurahan` text,
	`kecamatan` text,
	`kota` text,
	`provinsi` text,
	`address` text,
	`logo_data_url` text,
	`head_name` text,
	`head_title` text,
	`number_format` text,
	`updated_at` text NOT NULL,
	`updated_by` text
);
--> statement-breakpoint
CREATE TABLE `letters` (
	`id` text PRIMARY KEY NOT NULL,
	`resident_id` text NOT NULL,
	`unit_id` text NOT NULL,
	`jenis` text NOT NULL,
	`on_behalf_of` text NOT NULL,
	`subject_name` text NOT NULL,
	`keperluan` text NOT NULL,
	`fields` text NOT NULL,
	`status` text NOT NULL,
	`nomor_surat` text,
	`tanggal_surat` text,
	`note` text,
	`verification_code` text,
	`revision` integer DEFAULT 1 NOT NULL,
	`pdf_version` integer DEFAULT 1 NOT NULL,
	`decided_by` text,
	`finished_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `letters_nomor_uq` ON `letters` (`nomor_surat`);--> statement-breakpoint
CREATE UNIQUE INDEX `letters_verification_uq` ON `letters` (`verification_code`);--> statement-breakpoint
CREATE INDEX `letters_resident_idx` ON `letters` (`resident_id`,`id`);--> statement-breakpoint
CREATE INDEX `letters_status_idx` ON `letters` (`status`,`id`);