import { and, desc, eq, gte, inArray, lt, lte, or, type SQL, sql } from "drizzle-orm";
import { platformAudit } from "../../core/audit";
import type { PlatformCtx, TenantCtx } from "../../core/context";
import { isUniqueViolation } from "../../core/db/errors";
import { requireUser } from "../../core/http/access";
import { log } from "../../core/http/log";
import { newId } from "../../core/ids";
import type { After } from "../../core/sharedCalls";
import { closedTenantCtx } from "../../core/tenancy/closed";
import { operatorTenantCtx, tenantRowById } from "../../core/tenancy/contexts";
import { DAY_MS } from "../../core/time";
import {
  ARCHIVE_TTL_DAYS,
  type ArchiveView,
  CLOSED_ARCHIVE_TTL_DAYS,
  LEASE_MS,
  MAX_ATTEMPTS,
  platformBase,
  present,
  tenantBase,
  tenantById,
} from "./archives";
import { writeArchive } from "./export";
import { archiveRateLimit } from "./limits";
import { type TenantArchiveRow, tenantArchives } from "./platform-tables";

/** Exports: asked for, built (with a lease and retries), and the hourly job that finishes and sweeps them. */

/** A new export row, queued. */
function queuedExport(
  tenant: { id: string; slug: string },
  requestedBy: string,
  as: "admin" | "operator",
  createdAt: string,
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
    createdAt,
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
  const row = queuedExport(tenant, requireUser(ctx).userId, as, ctx.now().toISOString());
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
    runExport(ctx, row.id, ctx.now()).catch((error: unknown) =>
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
    const finished = ctx.now();
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
        ...(last ? { finishedAt: ctx.now().toISOString() } : {}),
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
  const row = queuedExport(tenant, requireUser(ctx).userId, "operator", createdAt);
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
  const row = queuedExport(tenant, requestedBy, "operator", ctx.now().toISOString());
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
  // A running archive whose lease ran out died with its isolate: an import at once, an export after its
  // last try (nothing will take it again).
  const failStuck = (kind: "import" | "export", ...more: SQL[]) =>
    ctx.platform
      .update(tenantArchives)
      .set({
        status: "failed",
        error: `the ${kind} stopped before it finished`,
        leaseUntil: null,
        finishedAt: at,
      })
      .where(
        and(
          eq(tenantArchives.kind, kind),
          eq(tenantArchives.status, "running"),
          lt(tenantArchives.leaseUntil, at),
          ...more,
        ),
      )
      .returning({ id: tenantArchives.id });
  const stuckImports = await failStuck("import");
  await failStuck("export", gte(tenantArchives.attempts, MAX_ATTEMPTS));
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
