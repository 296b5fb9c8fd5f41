-- Issue 44 P6: the RW's acknowledgement is off unless the RT's admin turned it on (letter_settings.rw_acknowledgement = 1).
-- Letters still waiting in the queue of an RT that never turned it on leave the RW's queue.
UPDATE `letters` SET `rw_ack_status` = NULL, `revision` = `revision` + 1
WHERE `rw_ack_status` = 'menunggu'
  AND NOT EXISTS (SELECT 1 FROM `letter_settings` WHERE `id` = 1 AND `rw_acknowledgement` = 1);
