import { sql } from "drizzle-orm";
import { index, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** A housing unit of the community: block plus house number, with its location for the map. */
export const units = sqliteTable(
  "units",
  {
    id: text("id").primaryKey(),
    block: text("block").notNull(),
    number: text("number").notNull(),
    latitude: real("latitude"),
    longitude: real("longitude"),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("units_block_number_uq").on(t.block, t.number), index("units_block_idx").on(t.block)],
);
