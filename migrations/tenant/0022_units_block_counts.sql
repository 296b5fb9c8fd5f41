CREATE TABLE `units_block_counts` (
	`block` text PRIMARY KEY ON CONFLICT IGNORE NOT NULL,
	`families` integer NOT NULL,
	`persons` integer NOT NULL,
	`vehicles` integer NOT NULL
);
--> statement-breakpoint
-- The statistics' figures per block (issue 32), by hand after drizzle-kit's table like 0019's tally: its primary key is `ON CONFLICT IGNORE` (drizzle cannot say so), so an archive restore's copy of a row the units' triggers already built is dropped (the table's name sorts after `units`, which a restore writes first). First the active cards registered before this migration; then the triggers keep it: cards added, removed, or changing status, unit or their kept `living_members` and `vehicle_count` (0017's triggers move those), and units added, removed or changing block. A block with no active card has no row.
INSERT INTO `units_block_counts` (`block`, `families`, `persons`, `vehicles`)
  SELECT u.`block`, count(*), sum(c.`living_members`), sum(c.`vehicle_count`)
  FROM `family_cards` c JOIN `units` u ON u.`id` = c.`unit_id`
  WHERE c.`status` = 'aktif'
  GROUP BY 1;
--> statement-breakpoint
CREATE TRIGGER `family_cards_block_insert` AFTER INSERT ON `family_cards` WHEN NEW.`status` = 'aktif' BEGIN
  INSERT INTO `units_block_counts` (`block`, `families`, `persons`, `vehicles`)
    SELECT `block`, 1, NEW.`living_members`, NEW.`vehicle_count` FROM `units` WHERE `id` = NEW.`unit_id`
    ON CONFLICT (`block`) DO UPDATE SET `families` = `families` + excluded.`families`,
      `persons` = `persons` + excluded.`persons`, `vehicles` = `vehicles` + excluded.`vehicles`;
END;
--> statement-breakpoint
CREATE TRIGGER `family_cards_block_delete` AFTER DELETE ON `family_cards` WHEN OLD.`status` = 'aktif' BEGIN
  INSERT INTO `units_block_counts` (`block`, `families`, `persons`, `vehicles`)
    SELECT `block`, -1, -OLD.`living_members`, -OLD.`vehicle_count` FROM `units` WHERE `id` = OLD.`unit_id`
    ON CONFLICT (`block`) DO UPDATE SET `families` = `families` + excluded.`families`,
      `persons` = `persons` + excluded.`persons`, `vehicles` = `vehicles` + excluded.`vehicles`;
  DELETE FROM `units_block_counts` WHERE `families` = 0 AND `block` IN (SELECT `block` FROM `units` WHERE `id` = OLD.`unit_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `family_cards_block_update` AFTER UPDATE OF `status`, `unit_id`, `living_members`, `vehicle_count` ON `family_cards`
WHEN (OLD.`status` = 'aktif') IS NOT (NEW.`status` = 'aktif') OR OLD.`unit_id` IS NOT NEW.`unit_id`
  OR (NEW.`status` = 'aktif' AND (OLD.`living_members` IS NOT NEW.`living_members` OR OLD.`vehicle_count` IS NOT NEW.`vehicle_count`)) BEGIN
  INSERT INTO `units_block_counts` (`block`, `families`, `persons`, `vehicles`)
    SELECT `block`, -1, -OLD.`living_members`, -OLD.`vehicle_count` FROM `units` WHERE `id` = OLD.`unit_id` AND OLD.`status` = 'aktif'
    ON CONFLICT (`block`) DO UPDATE SET `families` = `families` + excluded.`families`,
      `persons` = `persons` + excluded.`persons`, `vehicles` = `vehicles` + excluded.`vehicles`;
  INSERT INTO `units_block_counts` (`block`, `families`, `persons`, `vehicles`)
    SELECT `block`, 1, NEW.`living_members`, NEW.`vehicle_count` FROM `units` WHERE `id` = NEW.`unit_id` AND NEW.`status` = 'aktif'
    ON CONFLICT (`block`) DO UPDATE SET `families` = `families` + excluded.`families`,
      `persons` = `persons` + excluded.`persons`, `vehicles` = `vehicles` + excluded.`vehicles`;
  DELETE FROM `units_block_counts` WHERE `families` = 0 AND `block` IN (SELECT `block` FROM `units` WHERE `id` IN (OLD.`unit_id`, NEW.`unit_id`));
END;
--> statement-breakpoint
CREATE TRIGGER `units_block_insert` AFTER INSERT ON `units` BEGIN
  INSERT INTO `units_block_counts` (`block`, `families`, `persons`, `vehicles`)
    SELECT NEW.`block`, count(*), sum(`living_members`), sum(`vehicle_count`) FROM `family_cards`
    WHERE `status` = 'aktif' AND `unit_id` = NEW.`id` HAVING count(*) > 0
    ON CONFLICT (`block`) DO UPDATE SET `families` = `families` + excluded.`families`,
      `persons` = `persons` + excluded.`persons`, `vehicles` = `vehicles` + excluded.`vehicles`;
END;
--> statement-breakpoint
CREATE TRIGGER `units_block_delete` AFTER DELETE ON `units` BEGIN
  INSERT INTO `units_block_counts` (`block`, `families`, `persons`, `vehicles`)
    SELECT OLD.`block`, -count(*), -sum(`living_members`), -sum(`vehicle_count`) FROM `family_cards`
    WHERE `status` = 'aktif' AND `unit_id` = OLD.`id` HAVING count(*) > 0
    ON CONFLICT (`block`) DO UPDATE SET `families` = `families` + excluded.`families`,
      `persons` = `persons` + excluded.`persons`, `vehicles` = `vehicles` + excluded.`vehicles`;
  DELETE FROM `units_block_counts` WHERE `block` = OLD.`block` AND `families` = 0;
END;
--> statement-breakpoint
CREATE TRIGGER `units_block_update` AFTER UPDATE OF `block`, `id` ON `units`
WHEN OLD.`block` IS NOT NEW.`block` OR OLD.`id` IS NOT NEW.`id` BEGIN
  INSERT INTO `units_block_counts` (`block`, `families`, `persons`, `vehicles`)
    SELECT OLD.`block`, -count(*), -sum(`living_members`), -sum(`vehicle_count`) FROM `family_cards`
    WHERE `status` = 'aktif' AND `unit_id` = OLD.`id` HAVING count(*) > 0
    ON CONFLICT (`block`) DO UPDATE SET `families` = `families` + excluded.`families`,
      `persons` = `persons` + excluded.`persons`, `vehicles` = `vehicles` + excluded.`vehicles`;
  INSERT INTO `units_block_counts` (`block`, `families`, `persons`, `vehicles`)
    SELECT NEW.`block`, count(*), sum(`living_members`), sum(`vehicle_count`) FROM `family_cards`
    WHERE `status` = 'aktif' AND `unit_id` = NEW.`id` HAVING count(*) > 0
    ON CONFLICT (`block`) DO UPDATE SET `families` = `families` + excluded.`families`,
      `persons` = `persons` + excluded.`persons`, `vehicles` = `vehicles` + excluded.`vehicles`;
  DELETE FROM `units_block_counts` WHERE `block` IN (OLD.`block`, NEW.`block`) AND `families` = 0;
END;
