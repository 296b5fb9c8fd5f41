CREATE TABLE `slot_owner` (
	`id` integer PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	CONSTRAINT "slot_owner_one_row" CHECK("slot_owner"."id" = 1)
);
