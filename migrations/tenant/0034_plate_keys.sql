DROP INDEX `vehicles_plate_uq`;--> statement-breakpoint
ALTER TABLE `vehicles` ADD `plate_key` text;--> statement-breakpoint
ALTER TABLE `vehicles` ADD `plate_duplicate` integer DEFAULT false NOT NULL;--> statement-breakpoint
-- Plates compared as plates, not spellings (issue 49, ADR 0047): every vehicle gets its key (`plateKey` of src/core/plate.ts: upper case, no spaces or dashes), then every vehicle whose key an older one (smaller id) already has is flagged for the secretary's review instead of failing the unique index below. Nothing is merged or dropped.
UPDATE `vehicles` SET `plate_key` = upper(replace(replace(replace(`plate`, ' ', ''), '-', ''), char(9), ''));--> statement-breakpoint
UPDATE `vehicles` SET `plate_duplicate` = 1 WHERE EXISTS (SELECT 1 FROM `vehicles` o WHERE o.`plate_key` = `vehicles`.`plate_key` AND o.`id` < `vehicles`.`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `vehicles_plate_key_uq` ON `vehicles` (`plate_key`) WHERE "vehicles"."plate_duplicate" = 0;--> statement-breakpoint
CREATE INDEX `vehicles_plate_key_idx` ON `vehicles` (`plate_key`,`plate_duplicate`);--> statement-breakpoint
-- A vehicle written without a key (the dev seed, an archive made before this migration) gets it here, flagged as a duplicate when an unflagged vehicle already has it, so such a write never fails on the index; the API's own writes set the key and are refused with 409 `plate_taken` instead.
CREATE TRIGGER `vehicles_plate_key_fill` AFTER INSERT ON `vehicles` WHEN NEW.`plate_key` IS NULL BEGIN
  UPDATE `vehicles` SET
    `plate_duplicate` = EXISTS (SELECT 1 FROM `vehicles` o WHERE o.`plate_key` = upper(replace(replace(replace(NEW.`plate`, ' ', ''), '-', ''), char(9), '')) AND o.`id` <> NEW.`id` AND o.`plate_duplicate` = 0),
    `plate_key` = upper(replace(replace(replace(NEW.`plate`, ' ', ''), '-', ''), char(9), ''))
  WHERE `id` = NEW.`id`;
END;
--> statement-breakpoint
-- The family cards' WhatsApp numbers as the international digits the API now stores (`toMsisdn`): the old rule let in `+?` and 9 to 15 digits, so a leading `+` is dropped and a leading 0 read as 62. A number that would then exceed 15 digits is left as it was (ADR 0047 says how it is still found).
UPDATE `family_cards` SET `head_whatsapp` = CASE WHEN ltrim(`head_whatsapp`, '+') LIKE '0%' THEN '62' || substr(ltrim(`head_whatsapp`, '+'), 2) ELSE ltrim(`head_whatsapp`, '+') END
  WHERE `head_whatsapp` IS NOT NULL AND `head_whatsapp` GLOB '*[0-9]*' AND length(CASE WHEN ltrim(`head_whatsapp`, '+') LIKE '0%' THEN '62' || substr(ltrim(`head_whatsapp`, '+'), 2) ELSE ltrim(`head_whatsapp`, '+') END) BETWEEN 8 AND 15
  AND ltrim(`head_whatsapp`, '+') NOT GLOB '*[^0-9]*';
