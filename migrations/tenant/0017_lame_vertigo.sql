ALTER TABLE `family_cards` ADD `living_members` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `family_cards` ADD `vehicle_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `family_cards_stats_idx` ON `family_cards` (`status`,`unit_id`,`living_members`,`vehicle_count`);--> statement-breakpoint
CREATE INDEX `family_members_stats_idx` ON `family_members` (`sex`,`religion`,`residence_status`,`living_status`);--> statement-breakpoint
CREATE INDEX `family_members_birth_idx` ON `family_members` (`birth_date`,`living_status`);--> statement-breakpoint
-- The statistics' kept counts per card (issue 32), for the cards registered before this migration, then kept by the triggers below like `search_text` (0012).
UPDATE `family_cards` SET `living_members` = (SELECT count(*) FROM `family_members` WHERE `family_card_id` = `family_cards`.`id` AND +`living_status` = 'hidup'), `vehicle_count` = (SELECT count(*) FROM `vehicles` WHERE `family_card_id` = `family_cards`.`id`);
--> statement-breakpoint
CREATE TRIGGER `family_members_count_insert` AFTER INSERT ON `family_members` BEGIN
  UPDATE `family_cards` SET `living_members` = (SELECT count(*) FROM `family_members` WHERE `family_card_id` = NEW.`family_card_id` AND +`living_status` = 'hidup') WHERE `id` = NEW.`family_card_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `family_members_count_update` AFTER UPDATE OF `living_status`, `family_card_id` ON `family_members` BEGIN
  UPDATE `family_cards` SET `living_members` = (SELECT count(*) FROM `family_members` WHERE `family_card_id` = OLD.`family_card_id` AND +`living_status` = 'hidup') WHERE `id` = OLD.`family_card_id`;
  UPDATE `family_cards` SET `living_members` = (SELECT count(*) FROM `family_members` WHERE `family_card_id` = NEW.`family_card_id` AND +`living_status` = 'hidup') WHERE `id` = NEW.`family_card_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `family_members_count_delete` AFTER DELETE ON `family_members` BEGIN
  UPDATE `family_cards` SET `living_members` = (SELECT count(*) FROM `family_members` WHERE `family_card_id` = OLD.`family_card_id` AND +`living_status` = 'hidup') WHERE `id` = OLD.`family_card_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `vehicles_count_insert` AFTER INSERT ON `vehicles` BEGIN
  UPDATE `family_cards` SET `vehicle_count` = (SELECT count(*) FROM `vehicles` WHERE `family_card_id` = NEW.`family_card_id`) WHERE `id` = NEW.`family_card_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `vehicles_count_update` AFTER UPDATE OF `family_card_id` ON `vehicles` BEGIN
  UPDATE `family_cards` SET `vehicle_count` = (SELECT count(*) FROM `vehicles` WHERE `family_card_id` = OLD.`family_card_id`) WHERE `id` = OLD.`family_card_id`;
  UPDATE `family_cards` SET `vehicle_count` = (SELECT count(*) FROM `vehicles` WHERE `family_card_id` = NEW.`family_card_id`) WHERE `id` = NEW.`family_card_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `vehicles_count_delete` AFTER DELETE ON `vehicles` BEGIN
  UPDATE `family_cards` SET `vehicle_count` = (SELECT count(*) FROM `vehicles` WHERE `family_card_id` = OLD.`family_card_id`) WHERE `id` = OLD.`family_card_id`;
END;
