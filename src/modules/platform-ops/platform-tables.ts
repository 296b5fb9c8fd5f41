import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const ARCHIVE_STATUSES = ["queued", "running", "ready", "failed", "expired"] as const;
export type ArchiveStatus = (typeof ARCHIVE_STATUSES)[number];

/**
 * Tenant archives (exports) in the platform database: the operator starts them for any tenant and the
 * background job finds the unfinished ones across tenants, and an archive row must not live inside the
 * very database it exports (it would land in its own archive and make an import target look non-empty).
 * Every tenant route's query filters by `tenant_id`.
 */
export const tenantArchives = sqliteTable(
  "tenant_archives",
  {
    id: text("id").primaryKey(),
    /** An export of the tenant, or an import into it (the import's lock and its record). */
    kind: text("kind", { enum: ["export", "import"] }).notNull(),
    tenantId: text("tenant_id").notNull(),
    /** The slug when it was asked for (the archive's name; the tenant may be renamed later). */
    tenantSlug: text("tenant_slug").notNull(),
    status: text("status", { enum: ARCHIVE_STATUSES }).notNull(),
    /** Who asked: a tenant admin's or an operator's user id. */
    requestedBy: text("requested_by").notNull(),
    requestedAs: text("requested_as", { enum: ["admin", "operator"] }).notNull(),
    r2Key: text("r2_key"),
    bytes: integer("bytes"),
    sha256: text("sha256"),
    /** Tables, rows and files in the archive, as the manifest counts them. */
    summary: text("summary", { mode: "json" }).$type<{ tables: number; rows: number; files: number }>(),
    /** An import's source: the export it was restored from, when it came from one. */
    sourceArchiveId: text("source_archive_id"),
    error: text("error"),
    attempts: integer("attempts").notNull().default(0),
    /** A running export owns the row until then; past it the hourly job may take it over. */
    leaseUntil: text("lease_until"),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
    finishedAt: text("finished_at"),
    /** The download is refused from this instant and the object is swept by the hourly job. */
    expiresAt: text("expires_at"),
  },
  (t) => [
    index("tenant_archives_tenant_idx").on(t.tenantId, t.id),
    index("tenant_archives_status_idx").on(t.status, t.leaseUntil),
    // One export in the works per tenant (a second request gets the first), one import at a time.
    uniqueIndex("tenant_archives_export_uq")
      .on(t.tenantId)
      .where(sql`${t.kind} = 'export' AND ${t.status} IN ('queued', 'running')`),
    uniqueIndex("tenant_archives_import_uq")
      .on(t.tenantId)
      .where(sql`${t.kind} = 'import' AND ${t.status} = 'running'`),
  ],
);

export type TenantArchiveRow = typeof tenantArchives.$inferSelect;
