import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * Gate hardware lives in the platform database because the webhook arrives with nothing but the
 * device's key: the key's hash must lead to the device and from there to its tenant.
 */
export const gateDevices = sqliteTable(
  "gate_devices",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    name: text("name").notNull(),
    adapter: text("adapter", { enum: ["generic", "hikvision"] }).notNull(),
    /** SHA-256 of the API key; the key itself is shown once, at creation. */
    keyHash: text("key_hash").notNull(),
    /** The key's first characters, so staff can tell devices' keys apart. */
    keyPrefix: text("key_prefix").notNull(),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    lastSeenAt: text("last_seen_at"),
    createdBy: text("created_by").notNull(),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
    updatedAt: text("updated_at").notNull(),
    /** Deleted devices disappear from lists and their keys stop working; the row stays for the event log. */
    deletedAt: text("deleted_at"),
  },
  (t) => [
    uniqueIndex("gate_devices_key_uq").on(t.keyHash),
    index("gate_devices_tenant_idx").on(t.tenantId, t.id),
  ],
);
