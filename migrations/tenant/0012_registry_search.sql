ALTER TABLE `family_cards` ADD `search_text` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `family_cards_search_idx` ON `family_cards` (`id`,`unit_id`,`status`,`search_text`);--> statement-breakpoint
-- The registry search's text per card (members' names and vehicle plates), kept by the triggers below.
UPDATE `family_cards` SET `search_text` = coalesce((SELECT group_concat(`name`, char(31)) FROM `family_members` WHERE `family_card_id` = `family_cards`.`id`), '') || char(31) || coalesce((SELECT group_concat(`plate`, char(31)) FROM `vehicles` WHERE `family_card_id` = `family_cards`.`id`), '');
--> statement-breakpoint
CREATE TRIGGER `family_members_search_insert` AFTER INSERT ON `family_members` BEGIN
  UPDATE `family_cards` SET `search_text` = coalesce((SELECT group_concat(`name`, char(31)) FROM `family_members` WHERE `family_card_id` = NEW.`family_card_id`), '') || char(31) || coalesce((SELECT group_concat(`plate`, char(31)) FROM `vehicles` WHERE `family_card_id` = NEW.`family_card_id`), '') WHERE `id` = NEW.`family_card_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `family_members_search_update` AFTER UPDATE OF `name`, `family_card_id` ON `family_members` BEGIN
  UPDATE `family_cards` SET `search_text` = coalesce((SELECT group_concat(`name`, char(31)) FROM `family_members` WHERE `family_card_id` = OLD.`family_card_id`), '') || char(31) || coalesce((SELECT group_concat(`plate`, char(31)) FROM `vehicles` WHERE `family_card_id` = OLD.`family_card_id`), '') WHERE `id` = OLD.`family_card_id`;
  UPDATE `family_cards` SET `search_text` = coalesce((SELECT group_concat(`name`, char(31)) FROM `family_members` WHERE `family_card_id` = NEW.`family_card_id`), '') || char(31) || coalesce((SELECT group_concat(`plate`, char(31)) FROM `vehicles` WHERE `family_card_id` = NEW.`family_card_id`), '') WHERE `id` = NEW.`family_card_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `family_members_search_delete` AFTER DELETE ON `family_members` BEGIN
  UPDATE `family_cards` SET `search_text` = coalesce((SELECT group_concat(`name`, char(31)) FROM `family_members` WHERE `family_card_id` = OLD.`family_card_id`), '') || char(31) || coalesce((SELECT group_concat(`plate`, char(31)) FROM `vehicles` WHERE `family_card_id` = OLD.`family_card_id`), '') WHERE `id` = OLD.`family_card_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `vehicles_search_insert` AFTER INSERT ON `vehicles` BEGIN
  UPDATE `family_cards` SET `search_text` = coalesce((SELECT group_concat(`name`, char(31)) FROM `family_members` WHERE `family_card_id` = NEW.`family_card_id`), '') || char(31) || coalesce((SELECT group_concat(`plate`, char(31)) FROM `vehicles` WHERE `family_card_id` = NEW.`family_card_id`), '') WHERE `id` = NEW.`family_card_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `vehicles_search_update` AFTER UPDATE OF `plate`, `family_card_id` ON `vehicles` BEGIN
  UPDATE `family_cards` SET `search_text` = coalesce((SELECT group_concat(`name`, char(31)) FROM `family_members` WHERE `family_card_id` = OLD.`family_card_id`), '') || char(31) || coalesce((SELECT group_concat(`plate`, char(31)) FROM `vehicles` WHERE `family_card_id` = OLD.`family_card_id`), '') WHERE `id` = OLD.`family_card_id`;
  UPDATE `family_cards` SET `search_text` = coalesce((SELECT group_concat(`name`, char(31)) FROM `family_members` WHERE `family_card_id` = NEW.`family_card_id`), '') || char(31) || coalesce((SELECT group_concat(`plate`, char(31)) FROM `vehicles` WHERE `family_card_id` = NEW.`family_card_id`), '') WHERE `id` = NEW.`family_card_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `vehicles_search_delete` AFTER DELETE ON `vehicles` BEGIN
  UPDATE `family_cards` SET `search_text` = coalesce((SELECT group_concat(`name`, char(31)) FROM `family_members` WHERE `family_card_id` = OLD.`family_card_id`), '') || char(31) || coalesce((SELECT group_concat(`plate`, char(31)) FROM `vehicles` WHERE `family_card_id` = OLD.`family_card_id`), '') WHERE `id` = OLD.`family_card_id`;
END;
