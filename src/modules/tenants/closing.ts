import { and, eq, isNotNull, isNull, lte, ne, notExists, or, sql } from "drizzle-orm";
import { platformAudit } from "../../core/audit";
import type { PlatformCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted } from "../../core/db/errors";
import { auditLog, TENANT_NEXT, tenants } from "../../core/db/platform-schema";
import { Conflict, Invalid, InvalidTransition } from "../../core/errors";
import { log } from "../../core/http/log";
import type { After } from "../../core/sharedCalls";
import { closedTenantCtx } from "../../core/tenancy/closed";
import { forgetTenant, tenantRowById } from "../../core/tenancy/contexts";
import { deleteClosedFiles, emptyClosedSlot, tenantPrefixes } from "../../core/tenancy/wipe";
import { nowIso } from "../../core/time";
import { endCommunitySessions, forgetEndedSessions } from "../identity/service";
import {
  CLOSED_ARCHIVE_TTL_DAYS,
  closingExport,
  exportAgain,
  exportSince,
  isArchiveUnderWay,
  runExport,
} from "../platform-ops/service";
import { dropLapsedVerifications, keepLetterVerifications } from "../surat/service";
import { tenantClosed } from "./admins";
import type { CloseTenantInput } from "./schemas";
import { presentTenant } from "./service";

/**
 * Closing a community (issue 27, item 6), in three steps that each survive a crash of the one before:
 *
 * 1. One platform batch: the tenant becomes `ditutup` (its routes, public pages and sign-in answer 410
 *    from then on), it leaves its parent RW and its RTs leave it, every session in it is revoked, its
 *    final archive is queued, and the closing is audited.
 * 2. Its finished letters' verification records are copied to the platform database (surat/kept.ts),
 *    then the archive is built (platform-ops' export, through core's one way into a closed tenant's
 *    database).
 * 3. Only once the archive is ready: the slot is emptied (core, tenancy/wipe.ts) and returned to the pool
 *    (slot null, audited). Until then the row keeps its slot, so no new tenant can claim it.
 *
 * Steps 2 and 3 run after the answer (`waitUntil`); if the isolate dies, or the wipe fails, the hourly
 * job `tenants.closing` finishes every closed tenant still holding a slot.
 *
 * 4. When its final archive's 30 days are over (`CLOSED_ARCHIVE_TTL_DAYS` after the close), the same job
 *    deletes the files it stored in R2 (`tenants/<id>/`, `tenants/<slug>/`; issue 44), audited as
 *    `tenant.files_deleted`, which also marks the tenant done.
 */

/**
 * A ready archive's builder empties the slot right after building it; the hourly job takes a wipe over
 * only when the archive has been ready this long, so two runners never wipe one slot at once (a second
 * drop after a new tenant claimed the slot would destroy that tenant's database).
 */
export const WIPE_TAKEOVER_MS = 15 * 60 * 1000;

/**
 * `DELETE /api/platform/tenants/:id { confirmSlug }`: 404 unknown tenant, 410 already closed, 400
 * `confirm_slug_mismatch` unless the slug is typed again, 409 while the tenant is still provisioning or
 * an export or import of it is under way. Answers with the closed tenant (its slot still held) and the
 * id of its final archive; the rest happens in the background.
 */
export async function closeTenant({
  ctx,
  id,
  input,
  after,
}: {
  ctx: PlatformCtx;
  id: string;
  input: CloseTenantInput;
  after: After;
}) {
  const db = ctx.platform;
  const current = await tenantRowById(ctx, id);
  if (current.status === "ditutup") {
    throw tenantClosed();
  }
  if (input.confirmSlug !== current.slug) {
    throw new Invalid("confirm_slug_mismatch", "Type the community's slug to confirm closing it.", [
      { field: "confirmSlug", message: "does not match the tenant's slug" },
    ]);
  }
  if (current.status === "provisioning") {
    throw new InvalidTransition(
      "A tenant still being provisioned cannot be closed yet.",
      TENANT_NEXT[current.status],
    );
  }
  const closedAt = nowIso(ctx);
  const archive = closingExport(ctx, current, closedAt);
  const linked = await db
    .select({ slug: tenants.slug })
    .from(tenants)
    .where(or(eq(tenants.parentId, id), eq(tenants.parentRequestId, id)));
  const batch = db.batch([
    db
      .update(tenants)
      .set({
        status: "ditutup",
        closedAt,
        parentId: null,
        linkedAt: null,
        parentRequestId: null,
        parentRequestedAt: null,
        updatedAt: closedAt,
      })
      .where(and(eq(tenants.id, id), ne(tenants.status, "ditutup"))),
    // A second close at the same moment changed nothing: its batch stops here, audit record included.
    abortBatchUnless(db, tenants, id, sql`changes() = 1`),
    // An RW closing: its RTs stand alone again, and the link requests it sent end.
    db
      .update(tenants)
      .set({ parentId: null, linkedAt: null, updatedAt: closedAt })
      .where(eq(tenants.parentId, id)),
    db
      .update(tenants)
      .set({ parentRequestId: null, parentRequestedAt: null, updatedAt: closedAt })
      .where(eq(tenants.parentRequestId, id)),
    endCommunitySessions({ ctx, tenantId: id }),
    archive.statement,
    platformAudit(ctx, {
      tenantId: id,
      action: "tenant.close",
      targetType: "tenant",
      targetId: id,
      detail: {
        slug: current.slug,
        slot: current.slot,
        archiveId: archive.id,
        parentId: current.parentId,
        unlinked: linked.map((t) => t.slug),
      },
    }),
    db.select().from(tenants).where(eq(tenants.id, id)),
  ]);
  let results: Awaited<typeof batch>;
  try {
    results = await batch;
  } catch (error) {
    if (isBatchAborted(error)) {
      throw tenantClosed();
    }
    if (isArchiveUnderWay(error)) {
      throw new Conflict(
        "archive_not_ready",
        "An export or import of this community is under way; close it once that has finished.",
      );
    }
    throw error;
  }
  const [, , , , ended, , , [row]] = results;
  forgetEndedSessions(ended);
  for (const slug of [current.slug, ...linked.map((t) => t.slug)]) {
    forgetTenant(slug);
  }
  after(
    finishClosing(ctx, id, ctx.now()).catch((error: unknown) =>
      log("error", "tenant_close_unfinished", { tenant: id, error: String(error) }),
    ),
  );
  if (!row) {
    throw new Error("tenant vanished while closing");
  }
  return { tenant: presentTenant(row), archiveId: archive.id };
}

/**
 * Steps 2 and 3 for one closed tenant still holding its slot: build its final archive if it is not
 * ready (another try when it failed or expired first), then empty the slot and return it to the pool.
 * Answers `waiting` while the archive is not ready, or while the runner that just built it may still
 * be wiping (`WIPE_TAKEOVER_MS`); `released` once the slot is back in the pool.
 */
export async function finishClosing(
  ctx: PlatformCtx,
  id: string,
  now: Date,
): Promise<"released" | "waiting" | "nothing"> {
  const tenant = await tenantRowById(ctx, id);
  if (tenant.status !== "ditutup" || tenant.slot === null) {
    return "nothing";
  }
  // Its letters stay verifiable (issue 42): copied out before anything else, so a scan right after the
  // close finds them, and before the wipe, which never runs until this has succeeded.
  await keepLetterVerifications(await closedTenantCtx(ctx, id), ctx.platform);
  let archive = await exportSince(ctx, id, tenant.closedAt ?? tenant.updatedAt);
  if (!archive || archive.status === "failed" || archive.status === "expired") {
    archive = await exportAgain(ctx, tenant, archive?.requestedBy ?? "system");
  }
  if (archive.status === "queued" || archive.status === "running") {
    if ((await runExport(ctx, archive.id, now)) !== "ready") {
      return "waiting";
    }
  } else if (Date.parse(archive.finishedAt ?? "") > now.getTime() - WIPE_TAKEOVER_MS) {
    return "waiting";
  }
  const slot = await emptyClosedSlot(ctx, id);
  try {
    await ctx.platform.batch([
      ctx.platform
        .update(tenants)
        .set({ slot: null, updatedAt: nowIso(ctx) })
        .where(and(eq(tenants.id, id), eq(tenants.status, "ditutup"), eq(tenants.slot, slot))),
      abortBatchUnless(ctx.platform, tenants, id, sql`changes() = 1`),
      platformAudit(ctx, {
        tenantId: id,
        action: "tenant.slot_released",
        targetType: "tenant",
        targetId: id,
        detail: { slot, archiveId: archive.id },
      }),
    ]);
  } catch (error) {
    // Another runner returned the slot first: nothing is left to do.
    if (!isBatchAborted(error)) {
      throw error;
    }
  }
  return "released";
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Closed tenants whose files one run deletes (one R2 list page per prefix each). */
const PURGE_TENANTS_PER_RUN = 5;
export const FILES_DELETED_ACTION = "tenant.files_deleted";

/**
 * Step 4: the files of closed tenants whose slot is back in the pool and whose final archive's window
 * (`CLOSED_ARCHIVE_TTL_DAYS` from the close) has ended. A tenant is done once a run finds nothing more
 * under its prefixes: the audit record says so, and keeps it out of later runs.
 */
async function deleteFilesPastWindow(ctx: PlatformCtx, scheduledAt: Date) {
  const cutoff = new Date(scheduledAt.getTime() - CLOSED_ARCHIVE_TTL_DAYS * DAY_MS).toISOString();
  const due = await ctx.platform
    .select({ id: tenants.id, slug: tenants.slug })
    .from(tenants)
    .where(
      and(
        eq(tenants.status, "ditutup"),
        isNull(tenants.slot),
        lte(tenants.closedAt, cutoff),
        notExists(
          ctx.platform
            .select({ one: sql`1` })
            .from(auditLog)
            .where(and(eq(auditLog.tenantId, tenants.id), eq(auditLog.action, FILES_DELETED_ACTION))),
        ),
      ),
    )
    .orderBy(tenants.id)
    .limit(PURGE_TENANTS_PER_RUN);
  let deleted = 0;
  for (const tenant of due) {
    const some = await deleteClosedFiles(ctx, tenant.id);
    deleted += some.deleted;
    if (!some.more) {
      await ctx.platform.batch([
        platformAudit(ctx, {
          tenantId: tenant.id,
          action: FILES_DELETED_ACTION,
          targetType: "tenant",
          targetId: tenant.id,
          detail: { slug: tenant.slug, prefixes: Object.values(tenantPrefixes(tenant)) },
        }),
      ]);
    }
  }
  return deleted;
}

/**
 * The hourly job: every closed tenant still holding a slot (a crash, a failed wipe) is finished, kept
 * letter verifications past their validity are dropped, and the files of a closed tenant whose archive
 * window has ended are deleted.
 */
export async function closingJob(ctx: PlatformCtx, scheduledAt: Date) {
  const pending = await ctx.platform
    .select({ id: tenants.id })
    .from(tenants)
    .where(and(eq(tenants.status, "ditutup"), isNotNull(tenants.slot)))
    .orderBy(tenants.id)
    .limit(5);
  const report = {
    released: 0,
    waiting: 0,
    failed: 0,
    lettersLapsed: await dropLapsedVerifications(ctx, scheduledAt),
  };
  for (const { id } of pending) {
    try {
      const outcome = await finishClosing(ctx, id, scheduledAt);
      report.released += outcome === "released" ? 1 : 0;
      report.waiting += outcome === "waiting" ? 1 : 0;
    } catch (error) {
      report.failed += 1;
      log("error", "tenant_close_unfinished", { tenant: id, error: String(error) });
    }
  }
  return { ...report, filesDeleted: await deleteFilesPastWindow(ctx, scheduledAt) };
}
