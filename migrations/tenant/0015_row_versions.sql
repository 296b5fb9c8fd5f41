CREATE TABLE `precondition_checks` (
	`id` integer PRIMARY KEY NOT NULL,
	`ok` integer NOT NULL,
	CONSTRAINT "precondition_failed" CHECK("precondition_checks"."ok" = 1)
);
--> statement-breakpoint
ALTER TABLE `asisten_info` ADD `row_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `complaints` ADD `row_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `proposals` ADD `row_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `gallery_albums` ADD `row_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `family_cards` ADD `row_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `family_members` ADD `row_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `units` ADD `row_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `vehicles` ADD `row_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `campaigns` ADD `row_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `dues_types` ADD `row_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `finance_settings` ADD `row_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `agenda` ADD `row_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `berita` ADD `row_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `pengumuman` ADD `row_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `polls` ADD `row_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `pasar_listings` ADD `row_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `letter_settings` ADD `row_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `letters` ADD `row_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `visitors` ADD `row_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
-- Every UPDATE moves row_version (core/db/row-version.ts rowVersionTriggerSql, ADR 0035).
CREATE TRIGGER `asisten_info_row_version` AFTER UPDATE ON `asisten_info` WHEN NEW.`row_version` <= OLD.`row_version` BEGIN UPDATE `asisten_info` SET `row_version` = OLD.`row_version` + 1 WHERE rowid = NEW.rowid; END;--> statement-breakpoint
CREATE TRIGGER `complaints_row_version` AFTER UPDATE ON `complaints` WHEN NEW.`row_version` <= OLD.`row_version` BEGIN UPDATE `complaints` SET `row_version` = OLD.`row_version` + 1 WHERE rowid = NEW.rowid; END;--> statement-breakpoint
CREATE TRIGGER `proposals_row_version` AFTER UPDATE ON `proposals` WHEN NEW.`row_version` <= OLD.`row_version` BEGIN UPDATE `proposals` SET `row_version` = OLD.`row_version` + 1 WHERE rowid = NEW.rowid; END;--> statement-breakpoint
CREATE TRIGGER `gallery_albums_row_version` AFTER UPDATE ON `gallery_albums` WHEN NEW.`row_version` <= OLD.`row_version` BEGIN UPDATE `gallery_albums` SET `row_version` = OLD.`row_version` + 1 WHERE rowid = NEW.rowid; END;--> statement-breakpoint
CREATE TRIGGER `family_cards_row_version` AFTER UPDATE ON `family_cards` WHEN NEW.`row_version` <= OLD.`row_version` BEGIN UPDATE `family_cards` SET `row_version` = OLD.`row_version` + 1 WHERE rowid = NEW.rowid; END;--> statement-breakpoint
CREATE TRIGGER `family_members_row_version` AFTER UPDATE ON `family_members` WHEN NEW.`row_version` <= OLD.`row_version` BEGIN UPDATE `family_members` SET `row_version` = OLD.`row_version` + 1 WHERE rowid = NEW.rowid; END;--> statement-breakpoint
CREATE TRIGGER `units_row_version` AFTER UPDATE ON `units` WHEN NEW.`row_version` <= OLD.`row_version` BEGIN UPDATE `units` SET `row_version` = OLD.`row_version` + 1 WHERE rowid = NEW.rowid; END;--> statement-breakpoint
CREATE TRIGGER `vehicles_row_version` AFTER UPDATE ON `vehicles` WHEN NEW.`row_version` <= OLD.`row_version` BEGIN UPDATE `vehicles` SET `row_version` = OLD.`row_version` + 1 WHERE rowid = NEW.rowid; END;--> statement-breakpoint
CREATE TRIGGER `campaigns_row_version` AFTER UPDATE ON `campaigns` WHEN NEW.`row_version` <= OLD.`row_version` BEGIN UPDATE `campaigns` SET `row_version` = OLD.`row_version` + 1 WHERE rowid = NEW.rowid; END;--> statement-breakpoint
CREATE TRIGGER `dues_types_row_version` AFTER UPDATE ON `dues_types` WHEN NEW.`row_version` <= OLD.`row_version` BEGIN UPDATE `dues_types` SET `row_version` = OLD.`row_version` + 1 WHERE rowid = NEW.rowid; END;--> statement-breakpoint
CREATE TRIGGER `finance_settings_row_version` AFTER UPDATE ON `finance_settings` WHEN NEW.`row_version` <= OLD.`row_version` BEGIN UPDATE `finance_settings` SET `row_version` = OLD.`row_version` + 1 WHERE rowid = NEW.rowid; END;--> statement-breakpoint
CREATE TRIGGER `agenda_row_version` AFTER UPDATE ON `agenda` WHEN NEW.`row_version` <= OLD.`row_version` BEGIN UPDATE `agenda` SET `row_version` = OLD.`row_version` + 1 WHERE rowid = NEW.rowid; END;--> statement-breakpoint
CREATE TRIGGER `berita_row_version` AFTER UPDATE ON `berita` WHEN NEW.`row_version` <= OLD.`row_version` BEGIN UPDATE `berita` SET `row_version` = OLD.`row_version` + 1 WHERE rowid = NEW.rowid; END;--> statement-breakpoint
CREATE TRIGGER `pengumuman_row_version` AFTER UPDATE ON `pengumuman` WHEN NEW.`row_version` <= OLD.`row_version` BEGIN UPDATE `pengumuman` SET `row_version` = OLD.`row_version` + 1 WHERE rowid = NEW.rowid; END;--> statement-breakpoint
CREATE TRIGGER `polls_row_version` AFTER UPDATE ON `polls` WHEN NEW.`row_version` <= OLD.`row_version` BEGIN UPDATE `polls` SET `row_version` = OLD.`row_version` + 1 WHERE rowid = NEW.rowid; END;--> statement-breakpoint
CREATE TRIGGER `pasar_listings_row_version` AFTER UPDATE ON `pasar_listings` WHEN NEW.`row_version` <= OLD.`row_version` BEGIN UPDATE `pasar_listings` SET `row_version` = OLD.`row_version` + 1 WHERE rowid = NEW.rowid; END;--> statement-breakpoint
CREATE TRIGGER `letter_settings_row_version` AFTER UPDATE ON `letter_settings` WHEN NEW.`row_version` <= OLD.`row_version` BEGIN UPDATE `letter_settings` SET `row_version` = OLD.`row_version` + 1 WHERE rowid = NEW.rowid; END;--> statement-breakpoint
CREATE TRIGGER `letters_row_version` AFTER UPDATE ON `letters` WHEN NEW.`row_version` <= OLD.`row_version` BEGIN UPDATE `letters` SET `row_version` = OLD.`row_version` + 1 WHERE rowid = NEW.rowid; END;--> statement-breakpoint
CREATE TRIGGER `visitors_row_version` AFTER UPDATE ON `visitors` WHEN NEW.`row_version` <= OLD.`row_version` BEGIN UPDATE `visitors` SET `row_version` = OLD.`row_version` + 1 WHERE rowid = NEW.rowid; END;
