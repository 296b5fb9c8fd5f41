CREATE TABLE `registry_birth_months` (
	`birth_month` text PRIMARY KEY ON CONFLICT IGNORE NOT NULL,
	`persons` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `registry_counts` (
	`living_status` text NOT NULL,
	`sex` text NOT NULL,
	`religion` text NOT NULL,
	`residence_status` text NOT NULL,
	`persons` integer NOT NULL,
	PRIMARY KEY(`living_status`, `sex`, `religion`, `residence_status`) ON CONFLICT IGNORE
);
--> statement-breakpoint
-- The registry's kept tally (issue 32), by hand after drizzle-kit's tables, like 0017's counts. Their primary keys are `ON CONFLICT IGNORE`, which drizzle cannot say: a plain INSERT of a key that is there already (an archive restore writes the tally's rows after the members, whose triggers built them) is dropped, while the triggers' own upserts still add. First the members of the active cards registered before this migration; then the triggers keep it: members added, removed or changed (card, living status, sex, religion, residence, birth date) and cards added, removed or moving in or out of `aktif`. A row at zero is deleted.
INSERT INTO `registry_counts` (`living_status`, `sex`, `religion`, `residence_status`, `persons`)
  SELECT m.`living_status`, m.`sex`, coalesce(m.`religion`, ''), coalesce(m.`residence_status`, ''), count(*)
  FROM `family_members` m JOIN `family_cards` c ON c.`id` = m.`family_card_id`
  WHERE c.`status` = 'aktif'
  GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
INSERT INTO `registry_birth_months` (`birth_month`, `persons`)
  SELECT substr(m.`birth_date`, 1, 7), count(*)
  FROM `family_members` m JOIN `family_cards` c ON c.`id` = m.`family_card_id`
  WHERE c.`status` = 'aktif' AND m.`living_status` = 'hidup' AND m.`birth_date` IS NOT NULL
  GROUP BY 1;
--> statement-breakpoint
CREATE TRIGGER `family_members_tally_insert` AFTER INSERT ON `family_members`
WHEN EXISTS (SELECT 1 FROM `family_cards` WHERE `id` = NEW.`family_card_id` AND `status` = 'aktif') BEGIN
  INSERT INTO `registry_counts` (`living_status`, `sex`, `religion`, `residence_status`, `persons`)
    VALUES (NEW.`living_status`, NEW.`sex`, coalesce(NEW.`religion`, ''), coalesce(NEW.`residence_status`, ''), 1)
    ON CONFLICT (`living_status`, `sex`, `religion`, `residence_status`) DO UPDATE SET `persons` = `persons` + excluded.`persons`;
  INSERT INTO `registry_birth_months` (`birth_month`, `persons`)
    SELECT substr(NEW.`birth_date`, 1, 7), 1 WHERE NEW.`living_status` = 'hidup' AND NEW.`birth_date` IS NOT NULL
    ON CONFLICT (`birth_month`) DO UPDATE SET `persons` = `persons` + excluded.`persons`;
END;
--> statement-breakpoint
CREATE TRIGGER `family_members_tally_delete` AFTER DELETE ON `family_members`
WHEN EXISTS (SELECT 1 FROM `family_cards` WHERE `id` = OLD.`family_card_id` AND `status` = 'aktif') BEGIN
  INSERT INTO `registry_counts` (`living_status`, `sex`, `religion`, `residence_status`, `persons`)
    VALUES (OLD.`living_status`, OLD.`sex`, coalesce(OLD.`religion`, ''), coalesce(OLD.`residence_status`, ''), -1)
    ON CONFLICT (`living_status`, `sex`, `religion`, `residence_status`) DO UPDATE SET `persons` = `persons` + excluded.`persons`;
  INSERT INTO `registry_birth_months` (`birth_month`, `persons`)
    SELECT substr(OLD.`birth_date`, 1, 7), -1 WHERE OLD.`living_status` = 'hidup' AND OLD.`birth_date` IS NOT NULL
    ON CONFLICT (`birth_month`) DO UPDATE SET `persons` = `persons` + excluded.`persons`;
  DELETE FROM `registry_counts` WHERE `living_status` = OLD.`living_status` AND `sex` = OLD.`sex`
    AND `religion` = coalesce(OLD.`religion`, '') AND `residence_status` = coalesce(OLD.`residence_status`, '') AND `persons` = 0;
  DELETE FROM `registry_birth_months` WHERE `birth_month` = substr(OLD.`birth_date`, 1, 7) AND `persons` = 0;
END;
--> statement-breakpoint
CREATE TRIGGER `family_members_tally_update` AFTER UPDATE OF `family_card_id`, `living_status`, `sex`, `religion`, `residence_status`, `birth_date` ON `family_members`
WHEN OLD.`family_card_id` IS NOT NEW.`family_card_id` OR OLD.`living_status` IS NOT NEW.`living_status` OR OLD.`sex` IS NOT NEW.`sex`
  OR OLD.`religion` IS NOT NEW.`religion` OR OLD.`residence_status` IS NOT NEW.`residence_status` OR OLD.`birth_date` IS NOT NEW.`birth_date` BEGIN
  INSERT INTO `registry_counts` (`living_status`, `sex`, `religion`, `residence_status`, `persons`)
    SELECT OLD.`living_status`, OLD.`sex`, coalesce(OLD.`religion`, ''), coalesce(OLD.`residence_status`, ''), -1
    WHERE EXISTS (SELECT 1 FROM `family_cards` WHERE `id` = OLD.`family_card_id` AND `status` = 'aktif')
    ON CONFLICT (`living_status`, `sex`, `religion`, `residence_status`) DO UPDATE SET `persons` = `persons` + excluded.`persons`;
  INSERT INTO `registry_birth_months` (`birth_month`, `persons`)
    SELECT substr(OLD.`birth_date`, 1, 7), -1 WHERE OLD.`living_status` = 'hidup' AND OLD.`birth_date` IS NOT NULL
      AND EXISTS (SELECT 1 FROM `family_cards` WHERE `id` = OLD.`family_card_id` AND `status` = 'aktif')
    ON CONFLICT (`birth_month`) DO UPDATE SET `persons` = `persons` + excluded.`persons`;
  INSERT INTO `registry_counts` (`living_status`, `sex`, `religion`, `residence_status`, `persons`)
    SELECT NEW.`living_status`, NEW.`sex`, coalesce(NEW.`religion`, ''), coalesce(NEW.`residence_status`, ''), 1
    WHERE EXISTS (SELECT 1 FROM `family_cards` WHERE `id` = NEW.`family_card_id` AND `status` = 'aktif')
    ON CONFLICT (`living_status`, `sex`, `religion`, `residence_status`) DO UPDATE SET `persons` = `persons` + excluded.`persons`;
  INSERT INTO `registry_birth_months` (`birth_month`, `persons`)
    SELECT substr(NEW.`birth_date`, 1, 7), 1 WHERE NEW.`living_status` = 'hidup' AND NEW.`birth_date` IS NOT NULL
      AND EXISTS (SELECT 1 FROM `family_cards` WHERE `id` = NEW.`family_card_id` AND `status` = 'aktif')
    ON CONFLICT (`birth_month`) DO UPDATE SET `persons` = `persons` + excluded.`persons`;
  DELETE FROM `registry_counts` WHERE `living_status` = OLD.`living_status` AND `sex` = OLD.`sex`
    AND `religion` = coalesce(OLD.`religion`, '') AND `residence_status` = coalesce(OLD.`residence_status`, '') AND `persons` = 0;
  DELETE FROM `registry_birth_months` WHERE `birth_month` = substr(OLD.`birth_date`, 1, 7) AND `persons` = 0;
END;
--> statement-breakpoint
CREATE TRIGGER `family_cards_tally_insert` AFTER INSERT ON `family_cards` WHEN NEW.`status` = 'aktif' BEGIN
  INSERT INTO `registry_counts` (`living_status`, `sex`, `religion`, `residence_status`, `persons`)
    SELECT `living_status`, `sex`, coalesce(`religion`, ''), coalesce(`residence_status`, ''), count(*)
    FROM `family_members` WHERE `family_card_id` = NEW.`id` GROUP BY 1, 2, 3, 4
    ON CONFLICT (`living_status`, `sex`, `religion`, `residence_status`) DO UPDATE SET `persons` = `persons` + excluded.`persons`;
  INSERT INTO `registry_birth_months` (`birth_month`, `persons`)
    SELECT substr(`birth_date`, 1, 7), count(*)
    FROM `family_members` WHERE `family_card_id` = NEW.`id` AND `living_status` = 'hidup' AND `birth_date` IS NOT NULL GROUP BY 1
    ON CONFLICT (`birth_month`) DO UPDATE SET `persons` = `persons` + excluded.`persons`;
END;
--> statement-breakpoint
CREATE TRIGGER `family_cards_tally_delete` AFTER DELETE ON `family_cards` WHEN OLD.`status` = 'aktif' BEGIN
  INSERT INTO `registry_counts` (`living_status`, `sex`, `religion`, `residence_status`, `persons`)
    SELECT `living_status`, `sex`, coalesce(`religion`, ''), coalesce(`residence_status`, ''), -count(*)
    FROM `family_members` WHERE `family_card_id` = OLD.`id` GROUP BY 1, 2, 3, 4
    ON CONFLICT (`living_status`, `sex`, `religion`, `residence_status`) DO UPDATE SET `persons` = `persons` + excluded.`persons`;
  INSERT INTO `registry_birth_months` (`birth_month`, `persons`)
    SELECT substr(`birth_date`, 1, 7), -count(*)
    FROM `family_members` WHERE `family_card_id` = OLD.`id` AND `living_status` = 'hidup' AND `birth_date` IS NOT NULL GROUP BY 1
    ON CONFLICT (`birth_month`) DO UPDATE SET `persons` = `persons` + excluded.`persons`;
  DELETE FROM `registry_counts` WHERE `persons` = 0;
  DELETE FROM `registry_birth_months` WHERE `persons` = 0
    AND `birth_month` IN (SELECT substr(`birth_date`, 1, 7) FROM `family_members` WHERE `family_card_id` = OLD.`id`);
END;
--> statement-breakpoint
CREATE TRIGGER `family_cards_tally_status` AFTER UPDATE OF `status`, `id` ON `family_cards`
WHEN (OLD.`status` = 'aktif') IS NOT (NEW.`status` = 'aktif') OR OLD.`id` IS NOT NEW.`id` BEGIN
  INSERT INTO `registry_counts` (`living_status`, `sex`, `religion`, `residence_status`, `persons`)
    SELECT `living_status`, `sex`, coalesce(`religion`, ''), coalesce(`residence_status`, ''), -count(*)
    FROM `family_members` WHERE `family_card_id` = OLD.`id` AND OLD.`status` = 'aktif' GROUP BY 1, 2, 3, 4
    ON CONFLICT (`living_status`, `sex`, `religion`, `residence_status`) DO UPDATE SET `persons` = `persons` + excluded.`persons`;
  INSERT INTO `registry_birth_months` (`birth_month`, `persons`)
    SELECT substr(`birth_date`, 1, 7), -count(*)
    FROM `family_members` WHERE `family_card_id` = OLD.`id` AND OLD.`status` = 'aktif' AND `living_status` = 'hidup' AND `birth_date` IS NOT NULL GROUP BY 1
    ON CONFLICT (`birth_month`) DO UPDATE SET `persons` = `persons` + excluded.`persons`;
  INSERT INTO `registry_counts` (`living_status`, `sex`, `religion`, `residence_status`, `persons`)
    SELECT `living_status`, `sex`, coalesce(`religion`, ''), coalesce(`residence_status`, ''), count(*)
    FROM `family_members` WHERE `family_card_id` = NEW.`id` AND NEW.`status` = 'aktif' GROUP BY 1, 2, 3, 4
    ON CONFLICT (`living_status`, `sex`, `religion`, `residence_status`) DO UPDATE SET `persons` = `persons` + excluded.`persons`;
  INSERT INTO `registry_birth_months` (`birth_month`, `persons`)
    SELECT substr(`birth_date`, 1, 7), count(*)
    FROM `family_members` WHERE `family_card_id` = NEW.`id` AND NEW.`status` = 'aktif' AND `living_status` = 'hidup' AND `birth_date` IS NOT NULL GROUP BY 1
    ON CONFLICT (`birth_month`) DO UPDATE SET `persons` = `persons` + excluded.`persons`;
  DELETE FROM `registry_counts` WHERE `persons` = 0;
  DELETE FROM `registry_birth_months` WHERE `persons` = 0
    AND `birth_month` IN (SELECT substr(`birth_date`, 1, 7) FROM `family_members` WHERE `family_card_id` IN (OLD.`id`, NEW.`id`));
END;
