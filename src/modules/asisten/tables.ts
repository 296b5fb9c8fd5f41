import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { rowVersion } from "../../core/db/row-version";

/**
 * Each resident's assistant use per Asia/Jakarta day: requests and model tokens. One row per user and
 * day; the limit check is one conditional UPSERT, so concurrent requests cannot slip past it.
 */
export const asistenUsage = sqliteTable(
  "asisten_usage",
  {
    userId: text("user_id").notNull(),
    day: text("day").notNull(),
    requests: integer("requests").notNull().default(0),
    tokens: integer("tokens").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);

/**
 * What the staff wrote for the assistant to tell residents (the `info_rt` tool): house rules, office
 * hours, the agenda. One row per tenant (`id` is always "rt").
 */
export const asistenInfo = sqliteTable("asisten_info", {
  id: text("id").primaryKey(),
  /** ETag and If-Match (ADR 0035); moved by a trigger, never set here. */
  rowVersion: rowVersion(),
  rules: text("rules").notNull().default(""),
  agenda: text("agenda").notNull().default(""),
  updatedAt: text("updated_at").notNull(),
  updatedBy: text("updated_by"),
});
