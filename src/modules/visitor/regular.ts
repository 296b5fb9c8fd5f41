import { and, desc, eq, isNull, type SQL } from "drizzle-orm";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { isUniqueViolation } from "../../core/db/errors";
import { afterCursor, keysetPage, type ListQuery } from "../../core/db/paging";
import { rowById } from "../../core/db/rows";
import { Conflict, Forbidden, Invalid, NotFound, Unprocessable } from "../../core/errors";
import { hasRole, ROLES, requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { jakartaDay, jakartaDayStart, nowIso } from "../../core/time";
import { callerUnitId, requireCompleteProfile, residentsOf } from "../identity/service";
import { unitByAddress } from "../kependudukan/service";
import type { GatePassed } from "./gate-pass";
import type { RegularVisitorInput } from "./schemas";
import { regularVisitors, visitorPassages, visitors } from "./tables";

/**
 * Regular visitors (issue 45): a household's recurring pass for domestic help or a driver, with days of
 * the week and hours in Asia/Jakarta. The gate admits them inside a window and says why not outside one;
 * each entry is a visit of its own, so it appears among who is inside now and leaves as any guest does.
 */

type RegularRow = typeof regularVisitors.$inferSelect;
const JAKARTA_OFFSET_MS = 7 * 3_600_000;

/** Now in Asia/Jakarta: ISO weekday (1 Monday … 7 Sunday), `HH:MM` and the calendar day. */
function jakartaClock(now: Date) {
  const local = new Date(now.getTime() + JAKARTA_OFFSET_MS);
  const weekday = local.getUTCDay() === 0 ? 7 : local.getUTCDay();
  return { weekday, time: local.toISOString().slice(11, 16), day: jakartaDay(now) };
}

const daysOf = (row: RegularRow) => row.days.split(",").map(Number);

/** Why the gate refuses the card now, or null when it admits. */
function refusal(
  row: RegularRow,
  now: Date,
): { code: "pass_revoked" | "pass_expired" | "outside_window"; detail: string } | null {
  const clock = jakartaClock(now);
  if (row.revokedAt) {
    return { code: "pass_revoked", detail: "The household revoked this card." };
  }
  if (row.validUntil && clock.day > row.validUntil) {
    return { code: "pass_expired", detail: `This card was valid until ${row.validUntil}.` };
  }
  if (!daysOf(row).includes(clock.weekday) || clock.time < row.fromTime || clock.time >= row.untilTime) {
    return {
      code: "outside_window",
      detail:
        `Outside this card's schedule: days ${row.days} (1 Monday … 7 Sunday), ` +
        `${row.fromTime}–${row.untilTime} WIB; it is now day ${clock.weekday}, ${clock.time} WIB.`,
    };
  }
  return null;
}

export function presentRegular(row: RegularRow, now: Date) {
  return {
    id: row.id,
    residentId: row.residentId,
    unitId: row.unitId,
    name: row.name,
    role: row.role,
    vehiclePlate: row.vehiclePlate,
    days: daysOf(row),
    fromTime: row.fromTime,
    untilTime: row.untilTime,
    validUntil: row.validUntil,
    revokedAt: row.revokedAt,
    admittedNow: refusal(row, now) === null,
    createdAt: row.createdAt,
  };
}

const isStaff = (ctx: TenantCtx) => hasRole(ctx, ROLES.STAFF);
const worksGate = (ctx: TenantCtx) => hasRole(ctx, ROLES.GATE);

/**
 * Whose card it is. A resident's is for their own house (naming another: 403); staff name the house by
 * block and number (422 `unknown_house`), and the card is held by a resident account there, or by the
 * staff member when the household has none (an elderly couple without a phone).
 */
async function householdFor(
  ctx: TenantCtx,
  input: RegularVisitorInput,
): Promise<{ residentId: string; unitId: string }> {
  const userId = requireUser(ctx).userId;
  if (input.block === undefined || input.number === undefined) {
    const { unitId } = await requireCompleteProfile({ ctx });
    return { residentId: userId, unitId };
  }
  if (!isStaff(ctx)) {
    throw new Forbidden("forbidden", "A household issues cards for its own house; staff name another.");
  }
  const unit = await unitByAddress({ ctx, block: input.block, number: input.number });
  if (!unit) {
    throw new Unprocessable("unknown_house", "The registry has no house at that block and number.", [
      { field: "number", message: "no such house" },
    ]);
  }
  const [host] = (await residentsOf({ ctx })).filter((r) => r.unitId === unit.id);
  return { residentId: host?.userId ?? userId, unitId: unit.id };
}

/** The household issues a card for its own house, or staff for a house they name. Audited. */
export async function createRegular({ ctx, input }: { ctx: TenantCtx; input: RegularVisitorInput }) {
  const { residentId, unitId } = await householdFor(ctx, input);
  if (input.validUntil) {
    jakartaDayStart(input.validUntil, "validUntil");
    if (input.validUntil < jakartaDay(ctx.now())) {
      throw new Invalid("invalid_window", "The card's last day is already past.", [
        { field: "validUntil", message: "in the past" },
      ]);
    }
  }
  const id = newId();
  const now = nowIso(ctx);
  const [[row]] = await ctx.db.batch([
    ctx.db
      .insert(regularVisitors)
      .values({
        id,
        residentId,
        unitId,
        name: input.name,
        role: input.role,
        vehiclePlate: input.vehiclePlate ?? null,
        days: [...input.days].sort().join(","),
        fromTime: input.fromTime,
        untilTime: input.untilTime,
        validUntil: input.validUntil ?? null,
        updatedAt: now,
      })
      .returning(),
    audit(ctx, {
      action: "visitor.regular_create",
      targetType: "regular_visitor",
      targetId: id,
      detail: { unitId },
    }),
  ]);
  if (!row) {
    throw new Error("insert returned no row");
  }
  return presentRegular(row, ctx.now());
}

/**
 * A resident lists their household's cards; the gate and staff list every card not revoked (the guard's
 * screen: who may come today).
 */
export async function listRegular({ ctx, input }: { ctx: TenantCtx; input: ListQuery }) {
  let scope: SQL | undefined;
  if (worksGate(ctx)) {
    scope = isNull(regularVisitors.revokedAt);
  } else {
    const unitId = await callerUnitId({ ctx });
    if (!unitId) {
      return { items: [], nextCursor: null };
    }
    scope = eq(regularVisitors.unitId, unitId);
  }
  const rows = await ctx.db
    .select()
    .from(regularVisitors)
    .where(and(scope, ...afterCursor(regularVisitors.id, input.cursor, "desc")))
    .orderBy(desc(regularVisitors.id))
    .limit(input.limit + 1);
  const page = keysetPage(rows, input.limit);
  const now = ctx.now();
  return { items: page.items.map((row) => presentRegular(row, now)), nextCursor: page.nextCursor };
}

/** The household's own card, or (for staff) any: else 404. */
async function loadRegular(ctx: TenantCtx, id: string): Promise<RegularRow> {
  const row = await rowById(ctx.db, regularVisitors, id);
  if (!row) {
    throw new NotFound("Regular visitor");
  }
  if (!isStaff(ctx) && row.unitId !== (await callerUnitId({ ctx }))) {
    throw new NotFound("Regular visitor");
  }
  return row;
}

/** The household (or staff) revokes a card: the gate admits it no more. Idempotent. Audited. */
export async function revokeRegular({ ctx, id }: { ctx: TenantCtx; id: string }) {
  const row = await loadRegular(ctx, id);
  if (row.revokedAt) {
    return presentRegular(row, ctx.now());
  }
  const now = nowIso(ctx);
  const [[revoked]] = await ctx.db.batch([
    ctx.db
      .update(regularVisitors)
      .set({ revokedAt: now, revokedBy: requireUser(ctx).userId, updatedAt: now })
      .where(eq(regularVisitors.id, id))
      .returning(),
    audit(ctx, { action: "visitor.regular_revoke", targetType: "regular_visitor", targetId: id }),
  ]);
  return presentRegular(revoked ?? row, ctx.now());
}

const ROLE_WORDS: Record<RegularRow["role"], string> = {
  art: "Asisten rumah tangga",
  sopir: "Sopir",
  pengasuh: "Pengasuh",
  tukang: "Tukang",
  lainnya: "Tamu tetap",
};

/**
 * The guard lets a regular visitor in: inside a window (409 `outside_window` naming the schedule,
 * `pass_revoked`, `pass_expired` otherwise), not already inside (409 `already_checked_in`). The entry
 * is a visit of its own, approved by the card and checked in, with its passage, in one batch.
 */
export async function regularCheckIn({ ctx, id }: { ctx: TenantCtx; id: string }): Promise<GatePassed> {
  const row = await rowById(ctx.db, regularVisitors, id);
  if (!row) {
    throw new NotFound("Regular visitor");
  }
  const now = ctx.now();
  const refused = refusal(row, now);
  if (refused) {
    throw new Conflict(refused.code, refused.detail);
  }
  const at = nowIso(ctx);
  const guard = ctx.actor.kind === "device" ? `device:${ctx.actor.deviceId}` : requireUser(ctx).userId;
  const visitId = newId();
  const windowEnd = new Date(
    jakartaDayStart(jakartaDay(now)).getTime() +
      (Number(row.untilTime.slice(0, 2)) * 60 + Number(row.untilTime.slice(3))) * 60_000,
  ).toISOString();
  try {
    await ctx.db.batch([
      ctx.db.insert(visitors).values({
        id: visitId,
        residentId: row.residentId,
        unitId: row.unitId,
        guestName: row.name,
        purpose: ROLE_WORDS[row.role],
        visitAt: at,
        vehiclePlate: row.vehiclePlate,
        status: "disetujui",
        decidedBy: row.residentId,
        decidedAt: at,
        approvalMethod: "tuan_rumah",
        passValidFrom: at,
        passValidUntil: windowEnd,
        // Nobody is told: the household issued the card and expects them.
        notifiedAt: at,
        regularId: row.id,
        checkedInAt: at,
        checkedInBy: guard,
        updatedAt: at,
      }),
      ctx.db
        .insert(visitorPassages)
        .values({ id: newId(), visitorId: visitId, direction: "in", at, passedBy: guard }),
    ]);
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new Conflict("already_checked_in", "This regular visitor is already inside.");
    }
    throw error;
  }
  return { visitorId: visitId, guestName: row.name, checkedInAt: at, checkedOutAt: null };
}
