import { eq } from "drizzle-orm";
import { platformAudit } from "../../core/audit";
import type { PlatformCtx, TenantCtx } from "../../core/context";
import { isUniqueViolation } from "../../core/db/errors";
import { Conflict, Invalid, TooLarge, UnsupportedMedia } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { operatorTenantCtx } from "../../core/tenancy/contexts";
import { type ArchiveView, LEASE_MS, loadArchive, MAX_UPLOAD_BYTES, present, tenantById } from "./archives";
import { type ImportReport, importArchive, requireEmptyTenant } from "./import";
import { type TenantArchiveRow, tenantArchives } from "./platform-tables";

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
  const staged = await stageSource(ctx, source);
  const row = await startImport(ctx, tenant, staged);
  try {
    return await finishImport(ctx, tctx, tenant, row, staged);
  } catch (error) {
    await ctx.platform
      .update(tenantArchives)
      .set({
        status: "failed",
        error: (error instanceof Error ? error.message : String(error)).slice(0, 500),
        leaseUntil: null,
        finishedAt: ctx.now().toISOString(),
      })
      .where(eq(tenantArchives.id, row.id));
    throw error;
  } finally {
    if (staged.uploaded) {
      await ctx.env.FILES.delete(staged.uploaded);
    }
  }
}

/** Where the archive to import lies in R2: an export already held, or the upload, stored first. */
interface Staged {
  key: string;
  size: number;
  /** The upload's key, deleted once the import is over (an export held stays). */
  uploaded: string | null;
  sourceArchiveId: string | null;
}

async function stageSource(ctx: PlatformCtx, source: ImportSource): Promise<Staged> {
  if ("archiveId" in source) {
    const from = await loadArchive(ctx, source.archiveId);
    const object = from.r2Key ? await ctx.env.FILES.head(from.r2Key) : null;
    if (from.kind !== "export" || from.status !== "ready" || !from.r2Key || !object) {
      throw new Conflict("archive_not_ready", `Archive ${from.id} is ${from.status}, not a ready export.`);
    }
    return { key: from.r2Key, size: object.size, uploaded: null, sourceArchiveId: from.id };
  }
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
  const key = `archives/uploads/${newId()}.zip`;
  const stored = await ctx.env.FILES.put(key, source.body, {
    httpMetadata: { contentType: "application/zip" },
  });
  return { key, size: stored?.size ?? source.size, uploaded: key, sourceArchiveId: null };
}

/** Records the import as running; the one-at-a-time index refuses a second import of the tenant. */
async function startImport(
  ctx: PlatformCtx,
  tenant: { id: string; slug: string },
  staged: Staged,
): Promise<TenantArchiveRow> {
  const row: TenantArchiveRow = {
    id: newId(),
    kind: "import",
    tenantId: tenant.id,
    tenantSlug: tenant.slug,
    status: "running",
    requestedBy: requireUser(ctx).userId,
    requestedAs: "operator",
    r2Key: null,
    bytes: staged.size,
    sha256: null,
    summary: null,
    sourceArchiveId: staged.sourceArchiveId,
    error: null,
    attempts: 1,
    leaseUntil: new Date(ctx.now().getTime() + LEASE_MS).toISOString(),
    createdAt: ctx.now().toISOString(),
    finishedAt: null,
    expiresAt: null,
  };
  try {
    await ctx.platform.insert(tenantArchives).values(row);
  } catch (error) {
    if (staged.uploaded) {
      await ctx.env.FILES.delete(staged.uploaded);
    }
    if (isUniqueViolation(error)) {
      throw new Conflict("tenant_not_empty", "An import into this tenant is already running.");
    }
    throw error;
  }
  return row;
}

/** Restores the archive, then marks the record ready with its summary and the audit record. */
async function finishImport(
  ctx: PlatformCtx,
  tctx: TenantCtx,
  tenant: { id: string },
  row: TenantArchiveRow,
  staged: Staged,
): Promise<{ archive: ArchiveView; report: ImportReport }> {
  const { key, size, sourceArchiveId } = staged;
  const report = await importArchive(tctx, { bucket: ctx.env.FILES, key, size });
  const summary = { tables: Object.keys(report.tables).length, rows: report.rows, files: report.files };
  const [done] = await ctx.platform.batch([
    ctx.platform
      .update(tenantArchives)
      .set({ status: "ready", summary, leaseUntil: null, finishedAt: ctx.now().toISOString() })
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
}
