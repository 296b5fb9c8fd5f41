import { and, desc, eq, isNotNull, isNull, lt, type SQL } from "drizzle-orm";
import QRCode from "qrcode-svg";
import { auditInsert } from "../../core/audit";
import type { TenantCtx, TenantRole } from "../../core/context";
import { jakartaDayFilters } from "../../core/db/paging";
import { platformDb } from "../../core/db/platform";
import { loadConfig } from "../../core/env";
import { Conflict, Invalid, NotFound } from "../../core/errors";
import { newId } from "../../core/ids";
import { tellResident } from "../../core/notifier";
import { requireCompleteProfile, userNames } from "../identity/service";
import { defaultWindow, signPass, verifyPass } from "./pass";
import type { CreateVisitorInput, DecideVisitorInput, VisitorListQuery } from "./schemas";
import { visitors } from "./tables";

type VisitorRow = typeof visitors.$inferSelect;
const VISIT_GRACE_MS = 3_600_000;
const MAX_AHEAD_MS = 90 * 86_400_000;

function actorId(ctx: TenantCtx): string {
  if (ctx.actor.kind === "user") {
    return ctx.actor.userId;
  }
  if (ctx.actor.kind === "device") {
    return `device:${ctx.actor.deviceId}`;
  }
  throw new Error("visitor verbs need a user or a gate device");
}

/** Who reviews guests and works the gate: the secretary and the head (ARCHITECTURE.md roles). */
export const VISITOR_STAFF: TenantRole[] = ["sekretaris", "admin"];
const isStaff = (ctx: TenantCtx) =>
  ctx.actor.kind === "user" && (VISITOR_STAFF as string[]).includes(ctx.actor.role);

async function passOf(ctx: TenantCtx, row: VisitorRow): Promise<string | null> {
  if (row.status !== "disetujui" || !row.passValidFrom || !row.passValidUntil || !row.decidedAt) {
    return null;
  }
  return signPass(loadConfig(ctx.env), {
    tenant: ctx.tenant.slug,
    visitorId: row.id,
    issuedAt: row.decidedAt,
    validFrom: row.passValidFrom,
    validUntil: row.passValidUntil,
  });
}

export async function presentVisitor(
  ctx: TenantCtx,
  row: VisitorRow,
  opts: { withPass?: boolean; residentName?: string | null } = {},
) {
  return {
    id: row.id,
    residentId: row.residentId,
    ...(opts.residentName === undefined ? {} : { residentName: opts.residentName }),
    unitId: row.unitId,
    guestName: row.guestName,
    purpose: row.purpose,
    visitAt: row.visitAt,
    vehiclePlate: row.vehiclePlate,
    identity: row.identity,
    status: row.status,
    note: row.note,
    decidedAt: row.decidedAt,
    passValidFrom: row.passValidFrom,
    passValidUntil: row.passValidUntil,
    ...(opts.withPass ? { pass: await passOf(ctx, row) } : {}),
    notificationPending: row.status === "disetujui" && row.notifiedAt === null,
    checkedInAt: row.checkedInAt,
    checkedOutAt: row.checkedOutAt,
    inside: row.checkedInAt !== null && row.checkedOutAt === null,
    createdAt: row.createdAt,
  };
}

/** Fetch-or-404: a resident sees only their own requests; staff see all of the tenant's. */
async function loadVisitor(ctx: TenantCtx, id: string): Promise<VisitorRow> {
  const row = await ctx.db.select().from(visitors).where(eq(visitors.id, id)).get();
  if (!row || (!isStaff(ctx) && row.residentId !== actorId(ctx))) {
    throw new NotFound("Visitor request");
  }
  return row;
}

export async function createVisitor({ ctx, input }: { ctx: TenantCtx; input: CreateVisitorInput }) {
  const residentId = actorId(ctx);
  const { unitId } = await requireCompleteProfile(ctx.env, residentId, ctx.tenant.id);
  const visitAt = new Date(input.visitAt);
  if (visitAt.getTime() < Date.now() - VISIT_GRACE_MS) {
    throw new Invalid("visit_in_past", "The visit is more than an hour in the past.", [
      { field: "visitAt", message: "more than an hour ago" },
    ]);
  }
  if (visitAt.getTime() > Date.now() + MAX_AHEAD_MS) {
    throw new Invalid("visit_too_far", "Register visits at most 90 days ahead.", [
      { field: "visitAt", message: "more than 90 days ahead" },
    ]);
  }
  const [row] = await ctx.db
    .insert(visitors)
    .values({
      id: newId(),
      residentId,
      unitId,
      guestName: input.guestName,
      purpose: input.purpose,
      visitAt: visitAt.toISOString(),
      vehiclePlate: input.vehiclePlate ?? null,
      identity: input.identity ?? null,
      status: "menunggu",
      updatedAt: new Date().toISOString(),
    })
    .returning();
  if (!row) {
    throw new Error("insert returned no row");
  }
  return presentVisitor(ctx, row, { withPass: true });
}

export async function listMyVisitors({
  ctx,
  input,
}: {
  ctx: TenantCtx;
  input: { limit: number; cursor?: string };
}) {
  const filters: SQL[] = [eq(visitors.residentId, actorId(ctx))];
  if (input.cursor) {
    filters.push(lt(visitors.id, input.cursor));
  }
  const rows = await ctx.db
    .select()
    .from(visitors)
    .where(and(...filters))
    .orderBy(desc(visitors.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  return {
    items: await Promise.all(page.map((row) => presentVisitor(ctx, row, { withPass: true }))),
    nextCursor: rows.length > input.limit ? (page.at(-1)?.id ?? null) : null,
  };
}

export async function listVisitors({ ctx, input }: { ctx: TenantCtx; input: VisitorListQuery }) {
  const filters: SQL[] = [];
  if (input.cursor) {
    filters.push(lt(visitors.id, input.cursor));
  }
  if (input.status) {
    filters.push(eq(visitors.status, input.status));
  }
  filters.push(...jakartaDayFilters(visitors.visitAt, input.from, input.to));
  if (input.inside === "true") {
    filters.push(isNotNull(visitors.checkedInAt), isNull(visitors.checkedOutAt));
  }
  const rows = await ctx.db
    .select()
    .from(visitors)
    .where(and(...filters))
    .orderBy(desc(visitors.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  const names = await userNames(
    ctx.env,
    page.map((r) => r.residentId),
  );
  return {
    items: await Promise.all(
      page.map((row) => presentVisitor(ctx, row, { residentName: names.get(row.residentId) ?? null })),
    ),
    nextCursor: rows.length > input.limit ? (page.at(-1)?.id ?? null) : null,
  };
}

export async function getVisitor({ ctx, id }: { ctx: TenantCtx; id: string }) {
  return presentVisitor(ctx, await loadVisitor(ctx, id), { withPass: true });
}

const DATE_FORMAT = new Intl.DateTimeFormat("id-ID", {
  dateStyle: "full",
  timeStyle: "short",
  timeZone: "Asia/Jakarta",
});

/** Tells the resident; a notification service that is down leaves `notifiedAt` null, not a lost approval. */
async function notifyApproval(ctx: TenantCtx, row: VisitorRow): Promise<VisitorRow> {
  const visitDate = `${DATE_FORMAT.format(new Date(row.visitAt))} WIB`;
  const visitUrl = `${loadConfig(ctx.env).APP_URL}/tamu/${row.id}`;
  const told = await tellResident(ctx, row.residentId, {
    template: "VISITOR_APPROVED",
    data: { visitorName: row.guestName, visitDate, visitUrl },
    text: `kunjungan ${row.guestName} pada ${visitDate} telah disetujui pengurus ${ctx.tenant.name}. Kode QR: ${visitUrl}`,
    idempotencyKey: `visitor-approved:${ctx.tenant.slug}:${row.id}`,
  });
  if (!told) {
    return row;
  }
  const notifiedAt = new Date().toISOString();
  await ctx.db.update(visitors).set({ notifiedAt }).where(eq(visitors.id, row.id));
  return { ...row, notifiedAt };
}

export async function decideVisitor({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: DecideVisitorInput;
}) {
  const current = await loadVisitor(ctx, id);
  if (current.status !== "menunggu") {
    throw new Conflict("invalid_transition", `This request is already ${current.status}.`);
  }
  const now = new Date().toISOString();
  const window =
    input.status === "disetujui"
      ? input.validFrom && input.validUntil
        ? {
            validFrom: new Date(input.validFrom).toISOString(),
            validUntil: new Date(input.validUntil).toISOString(),
          }
        : defaultWindow(current.visitAt)
      : null;
  if (window && window.validUntil <= window.validFrom) {
    throw new Invalid("invalid_window", "validUntil must be after validFrom.", [
      { field: "validUntil", message: "before validFrom" },
    ]);
  }
  // Only from `menunggu`: a concurrent decision loses here rather than overwriting the first one.
  const [row] = await ctx.db
    .update(visitors)
    .set({
      status: input.status,
      note: input.note ?? null,
      decidedBy: actorId(ctx),
      decidedAt: now,
      passValidFrom: window?.validFrom ?? null,
      passValidUntil: window?.validUntil ?? null,
      updatedAt: now,
    })
    .where(and(eq(visitors.id, id), eq(visitors.status, "menunggu")))
    .returning();
  if (!row) {
    throw new Conflict("invalid_transition", "This request was decided meanwhile.");
  }
  await auditInsert(platformDb(ctx.env), ctx, {
    tenantId: ctx.tenant.id,
    action: input.status === "disetujui" ? "visitor.approve" : "visitor.reject",
    targetType: "visitor",
    targetId: id,
  });
  const final = input.status === "disetujui" ? await notifyApproval(ctx, row) : row;
  return presentVisitor(ctx, final, { withPass: true });
}

export async function visitorQrSvg({ ctx, id }: { ctx: TenantCtx; id: string }): Promise<string> {
  const row = await loadVisitor(ctx, id);
  const pass = await passOf(ctx, row);
  if (!pass) {
    throw new Conflict("not_approved", "Only an approved request has a pass.");
  }
  return new QRCode({ content: pass, ecl: "M", join: true, container: "svg-viewbox", padding: 2 }).svg();
}

export type GateDirection = "in" | "out";

/**
 * Checks a guest in or out by the scanned pass. Each step is one conditional UPDATE, so two gates
 * scanning the same pass at once record one check-in, and the loser learns why.
 */
export async function passGate({
  ctx,
  qr,
  direction,
}: {
  ctx: TenantCtx;
  qr: string;
  direction: GateDirection;
}) {
  const visitorId = await verifyPass(loadConfig(ctx.env), qr.trim(), ctx.tenant.slug);
  const now = new Date().toISOString();
  const by = actorId(ctx);
  const update =
    direction === "in"
      ? ctx.db
          .update(visitors)
          .set({ checkedInAt: now, checkedInBy: by, updatedAt: now })
          .where(
            and(eq(visitors.id, visitorId), eq(visitors.status, "disetujui"), isNull(visitors.checkedInAt)),
          )
      : ctx.db
          .update(visitors)
          .set({ checkedOutAt: now, checkedOutBy: by, updatedAt: now })
          .where(
            and(eq(visitors.id, visitorId), isNotNull(visitors.checkedInAt), isNull(visitors.checkedOutAt)),
          );
  const [row] = await update.returning();
  if (!row) {
    const existing = await ctx.db.select().from(visitors).where(eq(visitors.id, visitorId)).get();
    if (!existing) {
      throw new NotFound("Visitor request");
    }
    if (existing.status !== "disetujui") {
      throw new Conflict("not_approved", "This request is not approved.");
    }
    if (direction === "in") {
      throw existing.checkedOutAt
        ? new Conflict("pass_used", "This guest has already left; the pass cannot be used again.")
        : new Conflict("already_checked_in", "This guest is already inside.");
    }
    throw existing.checkedOutAt
      ? new Conflict("already_checked_out", "This guest has already left.")
      : new Conflict("not_checked_in", "This guest has not checked in.");
  }
  return {
    visitorId: row.id,
    guestName: row.guestName,
    checkedInAt: row.checkedInAt,
    checkedOutAt: row.checkedOutAt,
  };
}

/** Dashboard indicator: guests awaiting approval. */
export function countAwaitingGuests(ctx: TenantCtx): Promise<number> {
  return ctx.db.$count(visitors, eq(visitors.status, "menunggu"));
}
