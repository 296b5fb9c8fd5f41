import { eq } from "drizzle-orm";
import type { PlatformCtx } from "../context";
import { TENANT_NEXT, tenants } from "../db/platform-schema";
import { InvalidTransition } from "../errors";
import { slotDatabase } from "./slots";
import { bindingsOf } from "./system";

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
    throw new InvalidTransition(
      "Only a closed community that still holds a slot is emptied.",
      row ? TENANT_NEXT[row.status] : [],
    );
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

/**
 * The R2 prefixes a tenant owns: the file store and support uploads under its id (platform/uploads,
 * support/files.ts), letter and finance-report PDFs under its slug (surat/publish.ts,
 * keuangan/laporan/report.ts). Archives live under `archives/`, outside both. The slug stays the tenant's for
 * good (the row keeps it, closed or not, and slugs are unique), so its slug prefix is no other's.
 */
export const tenantPrefixes = (tenant: { id: string; slug: string }) =>
  ({ id: `tenants/${tenant.id}/`, slug: `tenants/${tenant.slug}/` }) as const;

/** R2 keys per list page (its maximum): one page per prefix per call. */
const FILES_PAGE = 1000;

/**
 * Deletes up to one list page of objects under each R2 prefix of a closed community whose slot is back
 * in the pool (issue 44: its files go when its archive window ends, tenants/closing.ts); answers how
 * many went and whether more are left for the next call. As with the slot, the row is read here by id,
 * so only a closed tenant's files are ever reached.
 */
export async function deleteClosedFiles(
  ctx: PlatformCtx,
  tenantId: string,
): Promise<{ deleted: number; more: boolean }> {
  const row = await ctx.platform
    .select({ status: tenants.status, slot: tenants.slot, slug: tenants.slug })
    .from(tenants)
    .where(eq(tenants.id, tenantId))
    .get();
  if (row?.status !== "ditutup" || row.slot !== null) {
    throw new InvalidTransition(
      "Only a closed community whose slot is released loses its files.",
      row ? TENANT_NEXT[row.status] : [],
    );
  }
  const files = bindingsOf(ctx).FILES;
  let deleted = 0;
  let more = false;
  for (const prefix of Object.values(tenantPrefixes({ id: tenantId, slug: row.slug }))) {
    const page = await files.list({ prefix, limit: FILES_PAGE });
    const keys = page.objects.map((o) => o.key);
    if (keys.length > 0) {
      await files.delete(keys);
      deleted += keys.length;
    }
    more ||= page.truncated;
  }
  return { deleted, more };
}
