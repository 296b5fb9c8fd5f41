import { and, desc, eq, gte, isNotNull, isNull, lt, or, type SQL } from "drizzle-orm";
import QRCode from "qrcode-svg";
import type { TenantCtx } from "../../core/context";
import { afterCursor, jakartaDayFilters, keysetPage, type ListQuery } from "../../core/db/paging";
import { rowById } from "../../core/db/rows";
import { Conflict, NotFound } from "../../core/errors";
import { hasRole, ROLES, requireUser } from "../../core/http/access";
import { DAY_MS, jakartaDay, jakartaDayStart } from "../../core/time";
import { callerUnitId, userNames } from "../identity/service";
import { defaultWindow, PASS_OPENS_BEFORE_MS, type PassWindow, passCode, signPass } from "./pass";
import type { VisitorListQuery } from "./schemas";
import { visitors } from "./tables";

export type VisitorRow = typeof visitors.$inferSelect;
export const VISIT_GRACE_MS = 3_600_000;

/** Who reviews guests and works the gate: the secretariat, as in the route table. */
export const isStaff = (ctx: TenantCtx) => hasRole(ctx, ROLES.STAFF);

export async function passOf(ctx: TenantCtx, row: VisitorRow): Promise<string | null> {
  if (row.status !== "disetujui" || !row.passValidFrom || !row.passValidUntil || !row.decidedAt) {
    return null;
  }
  return signPass(ctx.config, {
    tenant: ctx.tenant.slug,
    visitorId: row.id,
    issuedAt: row.decidedAt,
    validFrom: row.passValidFrom,
    validUntil: row.passValidUntil,
  });
}

async function passWithCode(ctx: TenantCtx, row: VisitorRow) {
  const pass = await passOf(ctx, row);
  return { pass, passCode: pass ? await passCode(ctx.config, pass) : null };
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
    ...(opts.withPass ? await passWithCode(ctx, row) : {}),
    notificationPending: row.status === "disetujui" && row.notifiedAt === null,
    checkedInAt: row.checkedInAt,
    checkedOutAt: row.checkedOutAt,
    inside: row.checkedInAt !== null && row.checkedOutAt === null,
    createdAt: row.createdAt,
    walkIn: row.registeredBy !== null,
    category: row.category,
    stayUntil: row.stayUntil,
    approvalMethod: row.approvalMethod,
    multiEntry: row.multiEntry,
    regularId: row.regularId,
    photoUrl: row.photoFileId ? walkInPhotoUrl(ctx, row.id) : null,
  };
}

/** The walk-in's photo through its own route: the host's household reads it there, not in `/api/files`. */
const walkInPhotoUrl = (ctx: TenantCtx, id: string) =>
  `${ctx.config.APP_URL.replace(/\/$/, "")}/api/visitor/${id}/foto`;

/** A walk-in is the host household's to see and answer: every resident account at its unit. */
export async function isHostOf(ctx: TenantCtx, row: VisitorRow): Promise<boolean> {
  return row.registeredBy !== null && row.unitId !== null && row.unitId === (await callerUnitId({ ctx }));
}

/**
 * Fetch-or-404: a resident sees only their own requests and the walk-ins to their house; staff see all
 * of the tenant's.
 */
export async function loadVisitor(ctx: TenantCtx, id: string): Promise<VisitorRow> {
  const row = await rowById(ctx.db, visitors, id);
  if (!row || (!isStaff(ctx) && row.residentId !== requireUser(ctx).userId && !(await isHostOf(ctx, row)))) {
    throw new NotFound("Visitor request");
  }
  return row;
}

/** The pass window a decision gives when staff name none: the visit's day, or the whole stay. */
export function windowFor(row: VisitorRow): PassWindow {
  const day = defaultWindow(row.visitAt);
  return row.stayUntil
    ? { ...day, validUntil: new Date(jakartaDayStart(row.stayUntil).getTime() + DAY_MS - 1000).toISOString() }
    : day;
}

/** A pass longer than a day is a stay: its guest goes out and in again while it is valid. */
export const isStay = (window: PassWindow) =>
  new Date(window.validUntil).getTime() - new Date(window.validFrom).getTime() > DAY_MS;

/** The caller's own registrations, and the walk-ins the guard registered for their house. */
export async function listMyVisitors({ ctx, input }: { ctx: TenantCtx; input: ListQuery }) {
  const unitId = await callerUnitId({ ctx });
  const own = eq(visitors.residentId, requireUser(ctx).userId);
  const rows = await ctx.db
    .select()
    .from(visitors)
    .where(
      and(
        unitId ? or(own, and(eq(visitors.unitId, unitId), isNotNull(visitors.registeredBy))) : own,
        ...afterCursor(visitors.id, input.cursor, "desc"),
      ),
    )
    .orderBy(desc(visitors.id))
    .limit(input.limit + 1);
  const page = keysetPage(rows, input.limit);
  return {
    items: await Promise.all(page.items.map((row) => presentVisitor(ctx, row, { withPass: true }))),
    nextCursor: page.nextCursor,
  };
}

/**
 * The gate's day: visits from the start of today (Asia/Jakarta) until the end of today, or later while a
 * visit's pass is already open (it opens an hour before the visit). At 23:50 WIB a guest announced for
 * 00:00 is at the gate with a valid pass, and the guard's list shows them.
 */
function gateDayFilters(now: Date): SQL[] {
  const start = jakartaDayStart(jakartaDay(now));
  const end = Math.max(start.getTime() + DAY_MS, now.getTime() + PASS_OPENS_BEFORE_MS);
  return [gte(visitors.visitAt, start.toISOString()), lt(visitors.visitAt, new Date(end).toISOString())];
}

/**
 * Staff see every request; a guard (satpam without a staff duty) sees the gate's day only (today's
 * guests, and those whose pass is already open), whatever dates they ask for: the gate's list, not the
 * community's visiting history.
 */
export async function listVisitors({ ctx, input }: { ctx: TenantCtx; input: VisitorListQuery }) {
  // Who is inside now is the gate's business whatever day they came (a stay of several days).
  const days =
    isStaff(ctx) || input.inside === "true"
      ? jakartaDayFilters(visitors.visitAt, input.from, input.to)
      : gateDayFilters(ctx.now());
  const filters: SQL[] = [
    ...afterCursor(visitors.id, input.cursor, "desc"),
    ...(input.status ? [eq(visitors.status, input.status)] : []),
    ...days,
    ...(input.inside === "true" ? [isNotNull(visitors.checkedInAt), isNull(visitors.checkedOutAt)] : []),
  ];
  const rows = await ctx.db
    .select()
    .from(visitors)
    .where(and(...filters))
    .orderBy(desc(visitors.id))
    .limit(input.limit + 1);
  const page = keysetPage(rows, input.limit);
  const names = await userNames({ ctx, ids: page.items.map((r) => r.residentId) });
  return {
    items: await Promise.all(
      page.items.map((row) => presentVisitor(ctx, row, { residentName: names.get(row.residentId) ?? null })),
    ),
    nextCursor: page.nextCursor,
  };
}

export async function getVisitor({ ctx, id }: { ctx: TenantCtx; id: string }) {
  return presentVisitor(ctx, await loadVisitor(ctx, id), { withPass: true });
}

export async function visitorQrSvg({ ctx, id }: { ctx: TenantCtx; id: string }): Promise<string> {
  const row = await loadVisitor(ctx, id);
  const pass = await passOf(ctx, row);
  if (!pass) {
    throw new Conflict("not_approved", "Only an approved request has a pass.");
  }
  return new QRCode({ content: pass, ecl: "M", join: true, container: "svg-viewbox", padding: 2 }).svg();
}

/** Dashboard indicator: guests awaiting approval. */
export function countAwaitingGuests(ctx: TenantCtx): Promise<number> {
  return ctx.db.$count(visitors, eq(visitors.status, "menunggu"));
}
