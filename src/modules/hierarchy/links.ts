import { and, asc, eq, isNull, lt, ne, or, sql } from "drizzle-orm";
import { platformAudit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted } from "../../core/db/errors";
import { tenants } from "../../core/db/platform-schema";
import { rowById } from "../../core/db/rows";
import { Conflict, Forbidden, Invalid, NotFound } from "../../core/errors";
import { log } from "../../core/http/log";
import { forgetTenant } from "../../core/tenancy/contexts";
import { DAY_MS, nowIso } from "../../core/time";
import { notifyFor } from "../../platform/notify";
import { tenantAdminContacts } from "../identity/service";
import { forgetFigures } from "./figures";
import { askRecord, checkAskLimits } from "./linkLimits";
import type { LinkChildInput } from "./schemas";

/**
 * Links between an RW and its RTs need the RT's consent (issue 27, item 5). An RW's admin asks
 * (`parentRequestId` on the RT's row), the RT's admin accepts (the request becomes `parentId`) or
 * declines, and the RW reads nothing of the RT before it accepts: the summary only follows `parentId`.
 * Every write is one guarded statement on the RT's row, so the invariant "a pending request means no
 * parent" holds whatever order two admins (or the operator's direct change) act in.
 */

type TenantRow = typeof tenants.$inferSelect;

function requireRw(ctx: TenantCtx) {
  if (ctx.tenant.type !== "RW") {
    throw new Forbidden("not_rw_tenant", "Only an RW tenant links RTs.");
  }
}

function requireRt(ctx: TenantCtx) {
  if (ctx.tenant.type !== "RT") {
    throw new Forbidden("not_rt_tenant", "Only an RT tenant answers an RW's link request.");
  }
}

const ref = (row: TenantRow) => ({ slug: row.slug, name: row.name });

/** A tenant by slug; a closed community is gone for this purpose too. */
async function bySlug(ctx: TenantCtx, slug: string): Promise<TenantRow> {
  const row = await ctx.platform.select().from(tenants).where(eq(tenants.slug, slug)).get();
  if (!row || row.status === "ditutup") {
    throw new NotFound("Tenant");
  }
  return row;
}

/**
 * After this long an unanswered request no longer holds the RT's slot (issue 44 P9): another RW may ask
 * in its place. The RT's admin may still answer it until then.
 */
export const LINK_REQUEST_HOLDS_DAYS = 14;

/** Before this instant a waiting request has stopped holding its RT's slot. */
const holdCutoff = (ctx: TenantCtx) =>
  new Date(ctx.now().getTime() - LINK_REQUEST_HOLDS_DAYS * DAY_MS).toISOString();

/** What a request for `child` by the caller comes to, given the RT's row as it stands. */
function standing(ctx: TenantCtx, child: TenantRow) {
  if (child.parentId === ctx.tenant.id) {
    return { child: ref(child), status: "disetujui" as const };
  }
  if (child.parentId !== null) {
    throw new Conflict("already_linked", "This RT is already linked to another RW.");
  }
  if (child.parentRequestId === ctx.tenant.id) {
    return { child: ref(child), status: "menunggu" as const };
  }
  const held = child.parentRequestedAt === null || child.parentRequestedAt >= holdCutoff(ctx);
  if (child.parentRequestId !== null && held) {
    throw new Conflict("link_request_pending", "Another RW's request to this RT awaits its answer.");
  }
  return null;
}

/**
 * An RW asks to link an RT. The write applies only while the RT has neither a parent nor another
 * request that still holds its slot (younger than LINK_REQUEST_HOLDS_DAYS), and the guard after it
 * aborts the batch (and its audit record) when someone got there first; asking again while the
 * request waits (or after it was accepted) changes nothing. The limits on asking come first.
 */
export async function requestLink({ ctx, input }: { ctx: TenantCtx; input: LinkChildInput }) {
  requireRw(ctx);
  const child = await bySlug(ctx, input.slug);
  if (child.id === ctx.tenant.id) {
    throw new Invalid("invalid_child", "An RW cannot link itself.", [
      { field: "slug", message: "the caller" },
    ]);
  }
  if (child.type !== "RT") {
    throw new Invalid("invalid_child", "Only an RT tenant can be linked to an RW.", [
      { field: "slug", message: "not an RT tenant" },
    ]);
  }
  const already = standing(ctx, child);
  if (already) {
    return already;
  }
  const { tell } = await checkAskLimits(ctx, child);
  const db = ctx.platform;
  const now = nowIso(ctx);
  try {
    await db.batch([
      db
        .update(tenants)
        .set({ parentRequestId: ctx.tenant.id, parentRequestedAt: now, updatedAt: now })
        .where(
          and(
            eq(tenants.id, child.id),
            isNull(tenants.parentId),
            or(isNull(tenants.parentRequestId), lt(tenants.parentRequestedAt, holdCutoff(ctx))),
          ),
        ),
      abortBatchUnless(db, tenants, child.id, sql`changes() = 1`),
      ...askRecord(ctx, ctx.tenant.id, child.id, "ask", now),
      platformAudit(ctx, {
        action: "hierarchy.link_request",
        targetType: "tenant",
        targetId: child.id,
        detail: { slug: child.slug },
      }),
    ]);
  } catch (error) {
    if (!isBatchAborted(error)) {
      throw error;
    }
    const after = await bySlug(ctx, input.slug);
    const settled = standing(ctx, after);
    if (settled) {
      return settled;
    }
    throw new Conflict("link_request_pending", "This RT's link changed meanwhile; ask again.");
  }
  if (tell) {
    await tellRtAdmins(ctx, child, now);
  }
  return { child: ref(child), status: "menunggu" as const };
}

/**
 * Tells the RT's admins that an RW asks to link it, by email or, without one, WhatsApp. The request is
 * already stored and shown at GET /parent-request, so a failure is logged and never fails the request.
 */
async function tellRtAdmins(ctx: TenantCtx, child: TenantRow, requestedAt: string) {
  const key = `hierarchy-link-request:${child.id}:${ctx.tenant.id}:${requestedAt}`;
  const body =
    `${ctx.tenant.name} meminta ${child.name} bergabung sebagai RT di bawahnya. ` +
    `Jika Anda setujui, pengurus ${ctx.tenant.name} dapat melihat angka ringkasan ${child.name} ` +
    "(jumlah warga, tunggakan iuran, surat yang menunggu, pengaduan terbuka), tanpa nama atau data pribadi warga. " +
    'Surat warga tidak dikirim ke RW kecuali Anda menyalakan "Mengetahui RW" di pengaturan surat; ' +
    "jika dinyalakan, pengurus RW melihat setiap surat yang selesai: nama warga, jenis dan keperluan surat, " +
    "nomor, tanggal, dan penandatangannya. " +
    "Setujui atau tolak permintaan ini di konsol pengurus; sebelum Anda setujui, tidak ada yang dibagikan.";
  try {
    const admins = await tenantAdminContacts({ ctx, tenantId: child.id });
    const notify = notifyFor(ctx.env);
    const emails = admins.flatMap((a) => (a.email ? [a.email] : []));
    if (emails.length > 0) {
      await notify.sendRawEmail({
        to: emails,
        subject: `[${child.name}] Permintaan bergabung dengan ${ctx.tenant.name}`,
        text: `Halo Pengurus ${child.name},\n\n${body}`,
        idempotencyKey: `${key}:email`,
      });
    }
    for (const admin of admins) {
      if (!admin.email && admin.whatsapp) {
        await notify.sendWhatsApp({
          to: admin.whatsapp,
          message: `Halo ${admin.name}, ${body}`,
          idempotencyKey: `${key}:wa:${admin.id}`,
        });
      }
    }
  } catch (error) {
    log("warn", "hierarchy.link_request_notify_failed", {
      requestId: ctx.requestId,
      child: child.slug,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

/** The RTs the caller's RW asked and that have not answered, by slug. Names only, never a figure. */
export async function pendingRequests(ctx: TenantCtx) {
  const rows = await ctx.platform
    .select({ slug: tenants.slug, name: tenants.name, requestedAt: tenants.parentRequestedAt })
    .from(tenants)
    .where(and(eq(tenants.parentRequestId, ctx.tenant.id), ne(tenants.status, "ditutup")))
    .orderBy(asc(tenants.slug));
  return rows.map((r) => ({ ...r, requestedAt: r.requestedAt ?? "", status: "menunggu" as const }));
}

/**
 * Unlinks one of the caller's RTs, or withdraws the caller's request to one. An RT that is neither
 * linked to nor asked by the caller is 404, like any object that is not yours; so is every slug for an
 * RT caller, which never has RTs linked to it or asked.
 */
export async function unlinkChild({ ctx, slug }: { ctx: TenantCtx; slug: string }) {
  const child = await bySlug(ctx, slug);
  const linked = child.parentId === ctx.tenant.id;
  if (!linked && child.parentRequestId !== ctx.tenant.id) {
    throw new NotFound("Linked RT");
  }
  const db = ctx.platform;
  const write = linked
    ? db
        .update(tenants)
        .set({ parentId: null, linkedAt: null, updatedAt: nowIso(ctx) })
        .where(and(eq(tenants.id, child.id), eq(tenants.parentId, ctx.tenant.id)))
    : db
        .update(tenants)
        .set({ parentRequestId: null, parentRequestedAt: null, updatedAt: nowIso(ctx) })
        .where(and(eq(tenants.id, child.id), eq(tenants.parentRequestId, ctx.tenant.id)));
  try {
    await db.batch([
      write,
      abortBatchUnless(db, tenants, child.id, sql`changes() = 1`),
      // The RT's kept figures go with the link (ADR 0038): a relink reads them again.
      forgetFigures(ctx, child.id),
      platformAudit(ctx, {
        action: linked ? "hierarchy.unlink" : "hierarchy.link_withdraw",
        targetType: "tenant",
        targetId: child.id,
        detail: { slug: child.slug },
      }),
    ]);
  } catch (error) {
    // Accepted, declined or unlinked meanwhile: what the caller named is no longer there.
    if (isBatchAborted(error)) {
      throw new NotFound("Linked RT");
    }
    throw error;
  }
  if (linked) {
    forgetTenant(child.slug);
  }
}

/** The RW asking to be the caller's parent and when it asked, or 404 `no_link_request`. */
async function pendingParent(ctx: TenantCtx) {
  requireRt(ctx);
  const own = await rowById(ctx.platform, tenants, ctx.tenant.id);
  const parent = own?.parentRequestId ? await rowById(ctx.platform, tenants, own.parentRequestId) : undefined;
  if (!own || !parent) {
    throw new NotFound("Link request", "no_link_request");
  }
  return { parent, requestedAt: own.parentRequestedAt ?? own.updatedAt };
}

/** The RW asking to link the caller's RT, for its admin to answer. */
export async function parentRequest({ ctx }: { ctx: TenantCtx }) {
  const { parent, requestedAt } = await pendingParent(ctx);
  return { parent: ref(parent), requestedAt, status: "menunggu" as const };
}

/**
 * Answers the RT's pending request from `parent`: `changes` applies to the RT's row only while that same
 * request still waits (not withdrawn, declined or overtaken by the operator meanwhile); otherwise the
 * batch and its audit record are aborted and the answer is 404 `no_link_request`.
 */
async function answerRequest(
  ctx: TenantCtx,
  parent: TenantRow,
  action: "hierarchy.link" | "hierarchy.link_decline",
  changes: Partial<typeof tenants.$inferInsert>,
) {
  const db = ctx.platform;
  const now = nowIso(ctx);
  // A decline starts the RW's cool-down for this RT (issue 44 P9).
  const record =
    action === "hierarchy.link_decline" ? askRecord(ctx, parent.id, ctx.tenant.id, "decline", now) : [];
  try {
    await db.batch([
      db
        .update(tenants)
        .set({ ...changes, parentRequestId: null, parentRequestedAt: null, updatedAt: now })
        .where(
          and(
            eq(tenants.id, ctx.tenant.id),
            eq(tenants.parentRequestId, parent.id),
            isNull(tenants.parentId),
          ),
        ),
      abortBatchUnless(db, tenants, ctx.tenant.id, sql`changes() = 1`),
      ...record,
      platformAudit(ctx, {
        action,
        targetType: "tenant",
        targetId: ctx.tenant.id,
        detail: { parentSlug: parent.slug },
      }),
    ]);
  } catch (error) {
    if (isBatchAborted(error)) {
      throw new NotFound("Link request", "no_link_request");
    }
    throw error;
  }
}

/** The RT's admin accepts: the request becomes the parent link. */
export async function acceptParentRequest({ ctx }: { ctx: TenantCtx }) {
  const { parent } = await pendingParent(ctx);
  if (parent.status === "ditutup") {
    throw new Conflict("invalid_parent", "The RW that asked has closed since; decline its request.");
  }
  const now = nowIso(ctx);
  await answerRequest(ctx, parent, "hierarchy.link", { parentId: parent.id, linkedAt: now });
  forgetTenant(ctx.tenant.slug);
  return { parent: ref(parent), linkedAt: now };
}

/**
 * The RT's admin declines: the request is cleared, and the RW may ask again only after
 * LINK_DECLINE_COOLDOWN_DAYS.
 */
export async function declineParentRequest({ ctx }: { ctx: TenantCtx }) {
  const { parent } = await pendingParent(ctx);
  await answerRequest(ctx, parent, "hierarchy.link_decline", {});
}
