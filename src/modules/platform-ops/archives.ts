import { and, desc, eq, gte, inArray, lt, lte, or, sql } from "drizzle-orm";
import { platformAudit } from "../../core/audit";
import type { PlatformCtx, TenantCtx } from "../../core/context";
import { isUniqueViolation } from "../../core/db/errors";
import { keysetPage } from "../../core/db/paging";
import { rowById } from "../../core/db/rows";
import { Conflict, Gone, Invalid, NotFound, TooLarge, UnsupportedMedia } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { log } from "../../core/http/log";
import { newId } from "../../core/ids";
import type { After } from "../../core/sharedCalls";
import { closedTenantCtx, operatorTenantCtx, tenantRowById } from "../../core/tenancy/contexts";
import { DAY_MS } from "../../core/time";
import { writeArchive } from "./export";
import { type ImportReport, importArchive, requireEmptyTenant } from "./import";
import { archiveRateLimit } from "./limits";
import { type TenantArchiveRow, tenantArchives } from "./platform-tables";

/** How long a finished archive may be downloaded; the hourly job deletes it afterwards. */
export const ARCHIVE_TTL_DAYS = 7;
/**
 * A closed community's final archive is kept longer: its admin can no longer ask for another, and the
 * operator hands this one over (issue 27: "kept 30 days").
 */
export const CLOSED_ARCHIVE_TTL_DAYS = 30;
/** A running export owns its row this long; past it the hourly job takes the export over. */
export const LEASE_MS = 15 * 60 * 1000;
/** Tries before an export is marked failed. */
export const MAX_ATTEMPTS = 3;
/** The largest archive an operator may upload for an import (a Worker's request body limit). */
export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

export interface ArchiveView {
  id: string;
  kind: "export" | "import";
  tenantId: string;
  tenantSlug: string;
  status: TenantArchiveRow["status"];
  requestedAs: "admin" | "operator";
  bytes: number | null;
  sha256: string | null;
  summary: { tables: number; rows: number; files: number } | null;
  error: string | null;
  attempts: number;
  createdAt: string;
  finishedAt: string | null;
  expiresAt: string | null;
  downloadUrl: string | null;
}

function present(row: TenantArchiveRow, downloadBase: string | null): ArchiveView {
  const downloadable = row.kind === "export" && row.status === "ready" && downloadBase !== null;
  return {
    id: row.id,
    kind: row.kind,
    tenantId: row.tenantId,
    tenantSlug: row.tenantSlug,
    status: row.status,
    requestedAs: row.requestedAs,
    bytes: row.bytes,
    sha256: row.sha256,
    summary: row.summary,
    error: row.error,
    attempts: row.attempts,
    createdAt: row.createdAt,
    finishedAt: row.finishedAt,
    expiresAt: row.expiresAt,
    downloadUrl: downloadable ? `${downloadBase}/${row.id}/download` : null,
  };
}

const base = (ctx: PlatformCtx) => ctx.config.APP_URL.replace(/\/$/, "");
const tenantBase = (ctx: PlatformCtx) => `${base(ctx)}/api/archives`;
const platformBase = (ctx: PlatformCtx) => `${base(ctx)}/api/platform/archives`;

async function tenantById(ctx: PlatformCtx, id: string) {
  const { slug } = await tenantRowById(ctx, id);
  return { id, slug };
}

/** A new export row, queued. */
function queuedExport(
  tenant: { id: string; slug: string },
  requestedBy: string,
  as: "admin" | "operator",
): TenantArchiveRow {
  return {
    id: newId(),
    kind: "export",
    tenantId: tenant.id,
    tenantSlug: tenant.slug,
    status: "queued",
    requestedBy,
    requestedAs: as,
    r2Key: null,
    bytes: null,
    sha256: null,
    summary: null,
    sourceArchiveId: null,
    error: null,
    attempts: 0,
    leaseUntil: null,
    createdAt: new Date().toISOString(),
    finishedAt: null,
    expiresAt: null,
  };
}

/** The export of `tenantId` already queued or running, if any (one at a time: a partial unique index). */
async function exportUnderWay(ctx: PlatformCtx, tenantId: string) {
  return ctx.platform
    .select()
    .from(tenantArchives)
    .where(
      and(
        eq(tenantArchives.tenantId, tenantId),
        eq(tenantArchives.kind, "export"),
        inArray(tenantArchives.status, ["queued", "running"]),
      ),
    )
    .get();
}

/** Queues an export (or answers the one already queued or running) and starts it after the answer. */
async function queueExport(
  ctx: PlatformCtx,
  tenant: { id: string; slug: string },
  as: "admin" | "operator",
  after: After,
): Promise<{ row: TenantArchiveRow; created: boolean }> {
  const row = queuedExport(tenant, requireUser(ctx).userId, as);
  try {
    await ctx.platform.batch([
      ctx.platform.insert(tenantArchives).values(row),
      platformAudit(ctx, {
        action: "tenant.export_requested",
        targetType: "tenant_archive",
        targetId: row.id,
        tenantId: tenant.id,
        detail: { as },
      }),
    ]);
  } catch (error) {
    if (!isUniqueViolation(error)) {
      throw error;
    }
    const running = await exportUnderWay(ctx, tenant.id);
    if (!running) {
      throw error;
    }
    return { row: running, created: false };
  }
  after(
    runExport(ctx, row.id, new Date()).catch((error: unknown) =>
      log("error", "archive_export_failed", { archive: row.id, error: String(error) }),
    ),
  );
  return { row, created: true };
}

/** `POST /api/archives`: the tenant admin asks for the community's archive. */
export async function requestTenantExport({ ctx, after }: { ctx: TenantCtx; after: After }) {
  await archiveRateLimit(ctx.env, [{ policy: "archive-export:tenant", subject: ctx.tenant.id }]);
  const { row, created } = await queueExport(ctx, ctx.tenant, "admin", after);
  return { archive: present(row, tenantBase(ctx)), created };
}

/** `POST /api/platform/tenants/:id/archives`: the operator asks for any tenant's archive. */
export async function requestPlatformExport({
  ctx,
  id,
  after,
}: {
  ctx: PlatformCtx;
  id: string;
  after: After;
}) {
  const { row, created } = await queueExport(ctx, await tenantById(ctx, id), "operator", after);
  return { archive: present(row, platformBase(ctx)), created };
}

/**
 * Builds one queued export. It first takes the row (queued, or running with its lease run out, and
 * tries left): a second runner for the same row changes nothing. A failure puts the row back in the
 * queue for the hourly job, or marks it failed after `MAX_ATTEMPTS`.
 */
export async function runExport(
  ctx: PlatformCtx,
  id: string,
  now: Date,
): Promise<ArchiveView["status"] | null> {
  const nowIso = now.toISOString();
  const claimed = await ctx.platform
    .update(tenantArchives)
    .set({
      status: "running",
      attempts: sql`${tenantArchives.attempts} + 1`,
      leaseUntil: new Date(now.getTime() + LEASE_MS).toISOString(),
    })
    .where(
      and(
        eq(tenantArchives.id, id),
        eq(tenantArchives.kind, "export"),
        lt(tenantArchives.attempts, MAX_ATTEMPTS),
        or(
          eq(tenantArchives.status, "queued"),
          and(eq(tenantArchives.status, "running"), lt(tenantArchives.leaseUntil, nowIso)),
        ),
      ),
    )
    .returning()
    .get();
  if (!claimed) {
    return null;
  }
  const key = `archives/${claimed.tenantId}/${claimed.id}.zip`;
  try {
    const tenant = await tenantRowById(ctx, claimed.tenantId);
    // A closed community is read through core's one way into its database after the close: its final
    // archive, before the slot is emptied (tenants/closing.ts).
    const closed = tenant.status === "ditutup";
    const tctx = closed ? await closedTenantCtx(ctx, tenant.id) : await operatorTenantCtx(ctx, tenant);
    const { bytes, sha256, manifest } = await writeArchive(tctx, key, now);
    const finished = new Date();
    const keptDays = closed ? CLOSED_ARCHIVE_TTL_DAYS : ARCHIVE_TTL_DAYS;
    await ctx.platform
      .update(tenantArchives)
      .set({
        status: "ready",
        r2Key: key,
        bytes,
        sha256,
        summary: {
          tables: Object.keys(manifest.tables).length,
          rows: Object.values(manifest.tables).reduce((a, b) => a + b, 0),
          files: manifest.entries.filter((e) => e.kind === "file").length,
        },
        error: null,
        leaseUntil: null,
        finishedAt: finished.toISOString(),
        expiresAt: new Date(finished.getTime() + keptDays * DAY_MS).toISOString(),
      })
      .where(eq(tenantArchives.id, id));
    return "ready";
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    const last = claimed.attempts >= MAX_ATTEMPTS;
    log("error", "archive_export_attempt_failed", { archive: id, attempt: claimed.attempts, error: message });
    await ctx.platform
      .update(tenantArchives)
      .set({
        status: last ? "failed" : "queued",
        error: message,
        leaseUntil: null,
        ...(last ? { finishedAt: new Date().toISOString() } : {}),
      })
      .where(eq(tenantArchives.id, id));
    return last ? "failed" : "queued";
  }
}

/**
 * A community's final archive, for its closing (tenants/closing.ts): the queued row's INSERT, committed
 * in the closing batch itself so the archive is asked for exactly when the community closes, and built
 * by `runExport` once it is closed. The batch fails on the one-export-at-a-time index while another
 * export or an import of the tenant is under way (`isArchiveUnderWay`).
 */
export function closingExport(ctx: PlatformCtx, tenant: { id: string; slug: string }, createdAt: string) {
  const row = { ...queuedExport(tenant, requireUser(ctx).userId, "operator"), createdAt };
  return { id: row.id, statement: ctx.platform.insert(tenantArchives).values(row) };
}

/** Whether a batch with `closingExport`'s statement failed because an export or import was under way. */
export function isArchiveUnderWay(error: unknown): boolean {
  return isUniqueViolation(error, "tenant_archives.tenant_id");
}

/** The newest export of a tenant made at or after `since` (a closed community's final archive). */
export async function exportSince(
  ctx: PlatformCtx,
  tenantId: string,
  since: string,
): Promise<TenantArchiveRow | undefined> {
  return ctx.platform
    .select()
    .from(tenantArchives)
    .where(
      and(
        eq(tenantArchives.tenantId, tenantId),
        eq(tenantArchives.kind, "export"),
        gte(tenantArchives.createdAt, since),
      ),
    )
    .orderBy(desc(tenantArchives.id))
    .get();
}

/**
 * Another try at a closed community's final archive when the last one failed (or expired) before its
 * slot was emptied: a new queued export, or the one already queued or running.
 */
export async function exportAgain(
  ctx: PlatformCtx,
  tenant: { id: string; slug: string },
  requestedBy: string,
): Promise<TenantArchiveRow> {
  const row = queuedExport(tenant, requestedBy, "operator");
  try {
    await ctx.platform.insert(tenantArchives).values(row);
    return row;
  } catch (error) {
    const running = isUniqueViolation(error) ? await exportUnderWay(ctx, tenant.id) : undefined;
    if (!running) {
      throw error;
    }
    return running;
  }
}

async function loadArchive(ctx: PlatformCtx, id: string, tenantId?: string): Promise<TenantArchiveRow> {
  const row = await rowById(ctx.platform, tenantArchives, id);
  if (!row || (tenantId !== undefined && row.tenantId !== tenantId)) {
    throw new NotFound("Archive", "archive_not_found");
  }
  return row;
}

/** `GET /api/archives/:id`: one of this tenant's archives (another tenant's id is 404). */
export async function getTenantArchive({ ctx, id }: { ctx: TenantCtx; id: string }) {
  return present(await loadArchive(ctx, id, ctx.tenant.id), tenantBase(ctx));
}

/** `GET /api/platform/archives/:id`. */
export async function getPlatformArchive({ ctx, id }: { ctx: PlatformCtx; id: string }) {
  return present(await loadArchive(ctx, id), platformBase(ctx));
}

async function listFor(ctx: PlatformCtx, tenantId: string, input: { limit: number; cursor?: string }) {
  const rows = await ctx.platform
    .select()
    .from(tenantArchives)
    .where(
      and(
        eq(tenantArchives.tenantId, tenantId),
        input.cursor ? lt(tenantArchives.id, input.cursor) : undefined,
      ),
    )
    .orderBy(desc(tenantArchives.id))
    .limit(input.limit + 1);
  return keysetPage(rows, input.limit);
}

/** `GET /api/archives`: this tenant's exports and imports, newest first. */
export async function listTenantArchives({
  ctx,
  input,
}: {
  ctx: TenantCtx;
  input: { limit: number; cursor?: string };
}) {
  const page = await listFor(ctx, ctx.tenant.id, input);
  return { items: page.items.map((r) => present(r, tenantBase(ctx))), nextCursor: page.nextCursor };
}

/** `GET /api/platform/tenants/:id/archives`. */
export async function listPlatformArchives({
  ctx,
  id,
  input,
}: {
  ctx: PlatformCtx;
  id: string;
  input: { limit: number; cursor?: string };
}) {
  const tenant = await tenantById(ctx, id);
  const page = await listFor(ctx, tenant.id, input);
  return { items: page.items.map((r) => present(r, platformBase(ctx))), nextCursor: page.nextCursor };
}

/**
 * A finished export's bytes: 409 while it is being made (or failed), 410 once it has expired (even
 * before the sweep removed it), 404 for an import record or another tenant's id.
 */
async function download(ctx: PlatformCtx, row: TenantArchiveRow, now: Date) {
  if (row.kind !== "export") {
    throw new NotFound("Archive", "archive_not_found");
  }
  if (row.status === "expired" || (row.expiresAt !== null && row.expiresAt <= now.toISOString())) {
    throw new Gone("archive_expired", "This archive has expired and was deleted; ask for a new one.");
  }
  if (row.status !== "ready" || !row.r2Key) {
    throw new Conflict("archive_not_ready", `This archive is ${row.status}; download it once it is ready.`);
  }
  const object = await ctx.env.FILES.get(row.r2Key);
  if (!object) {
    throw new Gone("archive_expired", "This archive is no longer stored; ask for a new one.");
  }
  const day = row.createdAt.slice(0, 10);
  return {
    body: object.body as ReadableStream,
    size: object.size,
    sha256: row.sha256,
    filename: `warga-${row.tenantSlug}-${day}-${row.id}.zip`,
  };
}

export async function downloadTenantArchive({ ctx, id }: { ctx: TenantCtx; id: string }) {
  return download(ctx, await loadArchive(ctx, id, ctx.tenant.id), new Date());
}

export async function downloadPlatformArchive({ ctx, id }: { ctx: PlatformCtx; id: string }) {
  return download(ctx, await loadArchive(ctx, id), new Date());
}

export type ImportSource =
  | { archiveId: string }
  | { body: ReadableStream; size: number; contentType: string };

/**
 * `POST /api/platform/tenants/:id/imports`: restores an archive into an empty tenant, from an export
 * this platform holds (`archiveId`) or from an uploaded ZIP. Synchronous: the operator gets the
 * verdict (409 not empty, 422 with the reason) or the report. One import per tenant at a time.
 */
export async function importIntoTenant({
  ctx,
  id,
  source,
}: {
  ctx: PlatformCtx;
  id: string;
  source: ImportSource;
}): Promise<{ archive: ArchiveView; report: ImportReport }> {
  const tenant = await tenantById(ctx, id);
  const tctx = await operatorTenantCtx(ctx, tenant);
  // Asked again under the import's lock; this first answer spares an upload and a record of a refusal.
  await requireEmptyTenant(tctx);
  let key: string;
  let size: number;
  let uploaded: string | null = null;
  let sourceArchiveId: string | null = null;
  if ("archiveId" in source) {
    const from = await loadArchive(ctx, source.archiveId);
    const object = from.r2Key ? await ctx.env.FILES.head(from.r2Key) : null;
    if (from.kind !== "export" || from.status !== "ready" || !from.r2Key || !object) {
      throw new Conflict("archive_not_ready", `Archive ${from.id} is ${from.status}, not a ready export.`);
    }
    key = from.r2Key;
    size = object.size;
    sourceArchiveId = from.id;
  } else {
    if (!/^application\/(zip|octet-stream)\b/i.test(source.contentType)) {
      throw new UnsupportedMedia("Send the archive as application/zip.", "unsupported_media_type");
    }
    if (!Number.isFinite(source.size) || source.size <= 0) {
      throw new Invalid("archive_invalid", "Send the archive as the body, with its Content-Length.", [
        { field: "body", message: "required" },
      ]);
    }
    if (source.size > MAX_UPLOAD_BYTES) {
      throw new TooLarge(`An archive may be at most ${MAX_UPLOAD_BYTES} bytes.`);
    }
    key = `archives/uploads/${newId()}.zip`;
    const stored = await ctx.env.FILES.put(key, source.body, {
      httpMetadata: { contentType: "application/zip" },
    });
    uploaded = key;
    size = stored?.size ?? source.size;
  }
  const row: TenantArchiveRow = {
    id: newId(),
    kind: "import",
    tenantId: tenant.id,
    tenantSlug: tenant.slug,
    status: "running",
    requestedBy: requireUser(ctx).userId,
    requestedAs: "operator",
    r2Key: null,
    bytes: size,
    sha256: null,
    summary: null,
    sourceArchiveId,
    error: null,
    attempts: 1,
    leaseUntil: new Date(Date.now() + LEASE_MS).toISOString(),
    createdAt: new Date().toISOString(),
    finishedAt: null,
    expiresAt: null,
  };
  try {
    await ctx.platform.insert(tenantArchives).values(row);
  } catch (error) {
    if (uploaded) {
      await ctx.env.FILES.delete(uploaded);
    }
    if (isUniqueViolation(error)) {
      throw new Conflict("tenant_not_empty", "An import into this tenant is already running.");
    }
    throw error;
  }
  try {
    const report = await importArchive(tctx, { bucket: ctx.env.FILES, key, size });
    const summary = { tables: Object.keys(report.tables).length, rows: report.rows, files: report.files };
    const [done] = await ctx.platform.batch([
      ctx.platform
        .update(tenantArchives)
        .set({ status: "ready", summary, leaseUntil: null, finishedAt: new Date().toISOString() })
        .where(eq(tenantArchives.id, row.id))
        .returning(),
      platformAudit(ctx, {
        action: "tenant.archive_imported",
        targetType: "tenant_archive",
        targetId: row.id,
        tenantId: tenant.id,
        detail: { sourceArchiveId, ...summary },
      }),
    ]);
    return { archive: present(done[0] as TenantArchiveRow, null), report };
  } catch (error) {
    await ctx.platform
      .update(tenantArchives)
      .set({
        status: "failed",
        error: (error instanceof Error ? error.message : String(error)).slice(0, 500),
        leaseUntil: null,
        finishedAt: new Date().toISOString(),
      })
      .where(eq(tenantArchives.id, row.id));
    throw error;
  } finally {
    if (uploaded) {
      await ctx.env.FILES.delete(uploaded);
    }
  }
}

/**
 * The hourly job: exports whose runner died (queued, or running past their lease) are built here; ready
 * archives past their expiry are deleted from R2 and marked expired; an import whose isolate died is
 * marked failed. A repeated run finds nothing left to do.
 */
export async function archiveJob(ctx: PlatformCtx, scheduledAt: Date) {
  const at = scheduledAt.toISOString();
  const expired = await ctx.platform
    .select({ id: tenantArchives.id, r2Key: tenantArchives.r2Key })
    .from(tenantArchives)
    .where(
      and(
        eq(tenantArchives.kind, "export"),
        eq(tenantArchives.status, "ready"),
        lte(tenantArchives.expiresAt, at),
      ),
    )
    .limit(200);
  for (const row of expired) {
    if (row.r2Key) {
      await ctx.env.FILES.delete(row.r2Key);
    }
    await ctx.platform
      .update(tenantArchives)
      .set({ status: "expired" })
      .where(and(eq(tenantArchives.id, row.id), eq(tenantArchives.status, "ready")));
  }
  const stuckImports = await ctx.platform
    .update(tenantArchives)
    .set({
      status: "failed",
      error: "the import stopped before it finished",
      leaseUntil: null,
      finishedAt: at,
    })
    .where(
      and(
        eq(tenantArchives.kind, "import"),
        eq(tenantArchives.status, "running"),
        lt(tenantArchives.leaseUntil, at),
      ),
    )
    .returning({ id: tenantArchives.id });
  // An export whose last try died with its isolate: nothing will take it again.
  await ctx.platform
    .update(tenantArchives)
    .set({
      status: "failed",
      error: "the export stopped before it finished",
      leaseUntil: null,
      finishedAt: at,
    })
    .where(
      and(
        eq(tenantArchives.kind, "export"),
        eq(tenantArchives.status, "running"),
        lt(tenantArchives.leaseUntil, at),
        gte(tenantArchives.attempts, MAX_ATTEMPTS),
      ),
    );
  const waiting = await ctx.platform
    .select({ id: tenantArchives.id })
    .from(tenantArchives)
    .where(
      and(
        eq(tenantArchives.kind, "export"),
        or(
          eq(tenantArchives.status, "queued"),
          and(eq(tenantArchives.status, "running"), lt(tenantArchives.leaseUntil, at)),
        ),
      ),
    )
    .orderBy(tenantArchives.id)
    .limit(5);
  let built = 0;
  let failed = 0;
  for (const row of waiting) {
    const status = await runExport(ctx, row.id, scheduledAt);
    built += status === "ready" ? 1 : 0;
    failed += status === "failed" ? 1 : 0;
  }
  return { expired: expired.length, stuckImports: stuckImports.length, built, failed };
}

/**
 * The file sweep's hold (core/uploads/sweep.ts): while an archive import into this tenant runs, its
 * `files` rows are written before the rows that point at them, so the sweep leaves the tenant alone.
 */
export async function archiveImportRunning(ctx: TenantCtx): Promise<string | null> {
  const running = await ctx.platform
    .select({ id: tenantArchives.id })
    .from(tenantArchives)
    .where(
      and(
        eq(tenantArchives.tenantId, ctx.tenant.id),
        eq(tenantArchives.kind, "import"),
        eq(tenantArchives.status, "running"),
      ),
    )
    .get();
  return running ? `archive import ${running.id} running` : null;
}
