import { eq } from "drizzle-orm";
import type { PlatformCtx } from "../context";
import { tenants } from "../db/platform-schema";
import { Conflict } from "../errors";
import { bindingsOf } from "./contexts";
import { slotDatabase } from "./slots";

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** SQLite's and D1's own tables, which cannot be dropped and hold nothing of the community. */
const isInternal = (name: string) => name.startsWith("sqlite_") || name.startsWith("_cf_");

/**
 * Empties the database slot of a closed community (status `ditutup`, slot still held): every view and
 * table is dropped, `d1_migrations` included, so `migrateSlot` starts from nothing when the slot is
 * claimed again (provision.ts). Returns the slot; the caller then returns it to the pool by setting the
 * row's slot to null (with its audit record) in the platform database.
 *
 * Only a closed tenant's slot is ever emptied: the row is read here, by id, right before the drop, so a
 * caller cannot name a slot, and a live tenant's database cannot be reached this way. Dropping again is
 * harmless (a crash after the drop and before the release is finished by the hourly job).
 */
export async function emptyClosedSlot(ctx: PlatformCtx, tenantId: string): Promise<number> {
  const row = await ctx.platform
    .select({ status: tenants.status, slot: tenants.slot })
    .from(tenants)
    .where(eq(tenants.id, tenantId))
    .get();
  if (row?.status !== "ditutup" || row.slot === null) {
    throw new Conflict("invalid_transition", "Only a closed community that still holds a slot is emptied.");
  }
  const db = slotDatabase(bindingsOf(ctx), row.slot);
  const { results } = await db
    .prepare("SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'view')")
    .all<{ type: "table" | "view"; name: string; sql: string | null }>();
  const objects = results.filter((o) => !isInternal(o.name));
  // Views first, then virtual tables (which drop their own shadow tables), then the rest; IF EXISTS
  // covers a shadow table its virtual table already took with it.
  const rank = (o: (typeof objects)[number]) =>
    o.type === "view" ? 0 : /^CREATE\s+VIRTUAL\s+TABLE/i.test(o.sql ?? "") ? 1 : 2;
  const drops = objects
    .sort((a, b) => rank(a) - rank(b))
    .map((o) => db.prepare(`DROP ${o.type === "view" ? "VIEW" : "TABLE"} IF EXISTS ${quote(o.name)}`));
  if (drops.length > 0) {
    // One transaction; foreign keys are checked at its end, when no table is left to violate them.
    await db.batch([db.prepare("PRAGMA defer_foreign_keys = on"), ...drops]);
  }
  return row.slot;
}
