import { sql } from "drizzle-orm";
import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Every event a gate device sent, with what we did about it. */
export const gateEvents = sqliteTable(
  "gate_events",
  {
    id: text("id").primaryKey(),
    deviceId: text("device_id").notNull(),
    kind: text("kind", { enum: ["qr_scan", "door_opened", "heartbeat"] }).notNull(),
    direction: text("direction", { enum: ["in", "out"] }),
    visitorId: text("visitor_id"),
    action: text("action", { enum: ["open", "deny", "none"] }).notNull(),
    reason: text("reason").notNull(),
    occurredAt: text("occurred_at").notNull(),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
  },
  (t) => [index("gate_events_device_idx").on(t.deviceId, t.id)],
);
