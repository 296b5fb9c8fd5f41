import { and, desc, eq } from "drizzle-orm";
import type { PlatformCtx, TenantCtx } from "../../core/context";
import { afterCursor, keysetPage, type ListQuery } from "../../core/db/paging";
import { rowById } from "../../core/db/rows";
import { Conflict, Gone, NotFound } from "../../core/errors";
import { tenantRowById } from "../../core/tenancy/contexts";
import { type TenantArchiveRow, tenantArchives } from "./platform-tables";
import type { TenantListArgs } from "./tenant-list";

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

export function present(row: TenantArchiveRow, downloadBase: string | null): ArchiveView {
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
export const tenantBase = (ctx: PlatformCtx) => `${base(ctx)}/api/archives`;
export const platformBase = (ctx: PlatformCtx) => `${base(ctx)}/api/platform/archives`;

export async function tenantById(ctx: PlatformCtx, id: string) {
  const { slug } = await tenantRowById(ctx, id);
  return { id, slug };
}

export async function loadArchive(
  ctx: PlatformCtx,
  id: string,
  tenantId?: string,
): Promise<TenantArchiveRow> {
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

async function listFor(ctx: PlatformCtx, tenantId: string, input: ListQuery) {
  const rows = await ctx.platform
    .select()
    .from(tenantArchives)
    .where(
      and(eq(tenantArchives.tenantId, tenantId), ...afterCursor(tenantArchives.id, input.cursor, "desc")),
    )
    .orderBy(desc(tenantArchives.id))
    .limit(input.limit + 1);
  return keysetPage(rows, input.limit);
}

/** `GET /api/archives`: this tenant's exports and imports, newest first. */
export async function listTenantArchives({ ctx, input }: { ctx: TenantCtx; input: ListQuery }) {
  const page = await listFor(ctx, ctx.tenant.id, input);
  return { items: page.items.map((r) => present(r, tenantBase(ctx))), nextCursor: page.nextCursor };
}

/** `GET /api/platform/tenants/:id/archives`. */
export async function listPlatformArchives({ ctx, id, input }: TenantListArgs) {
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
  return download(ctx, await loadArchive(ctx, id, ctx.tenant.id), ctx.now());
}

export async function downloadPlatformArchive({ ctx, id }: { ctx: PlatformCtx; id: string }) {
  return download(ctx, await loadArchive(ctx, id), ctx.now());
}

/**
 * The file sweep's hold (platform/uploads/sweep.ts): while an archive import into this tenant runs, its
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
