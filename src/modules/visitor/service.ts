import { and, desc, eq, isNotNull, isNull, or, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import QRCode from "qrcode-svg";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted } from "../../core/db/errors";
import { afterCursor, jakartaDayFilters, keysetPage, type ListQuery } from "../../core/db/paging";
import { rawD1, sqlName } from "../../core/db/raw";
import { rowById } from "../../core/db/rows";
import { Conflict, type DomainError, Invalid, NotFound } from "../../core/errors";
import { hasRole, ROLES, requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { tellResident } from "../../core/notifier";
import { addDays, jakartaDay, nowIso } from "../../core/time";
import { requireCompleteProfile, userNames } from "../identity/service";
import { defaultWindow, signPass, verifyPass } from "./pass";
import type { CreateVisitorInput, DecideVisitorInput, VisitorListQuery } from "./schemas";
import { visitors } from "./tables";

type VisitorRow = typeof visitors.$inferSelect;
const VISIT_GRACE_MS = 3_600_000;
const MAX_AHEAD_DAYS = 90;

/** Who reviews guests and works the gate: the secretariat, as in the route table. */
const isStaff = (ctx: TenantCtx) => hasRole(ctx, ROLES.STAFF);

/** Who let a guest through: a staff member at the gate, or a gate device (`device:<id>`). */
function gateOperator(ctx: TenantCtx): string {
  return ctx.actor.kind === "device" ? `device:${ctx.actor.deviceId}` : requireUser(ctx).userId;
}

async function passOf(ctx: TenantCtx, row: VisitorRow): Promise<string | null> {
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
  const row = await rowById(ctx.db, visitors, id);
  if (!row || (!isStaff(ctx) && row.residentId !== requireUser(ctx).userId)) {
    throw new NotFound("Visitor request");
  }
  return row;
}

export async function createVisitor({ ctx, input }: { ctx: TenantCtx; input: CreateVisitorInput }) {
  const residentId = requireUser(ctx).userId;
  const { unitId } = await requireCompleteProfile({ ctx });
  const visitAt = new Date(input.visitAt);
  if (visitAt.getTime() < Date.now() - VISIT_GRACE_MS) {
    throw new Invalid("visit_in_past", "The visit is more than an hour in the past.", [
      { field: "visitAt", message: "more than an hour ago" },
    ]);
  }
  if (visitAt > addDays(Date.now(), MAX_AHEAD_DAYS)) {
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
      updatedAt: nowIso(),
    })
    .returning();
  if (!row) {
    throw new Error("insert returned no row");
  }
  return presentVisitor(ctx, row, { withPass: true });
}

export async function listMyVisitors({ ctx, input }: { ctx: TenantCtx; input: ListQuery }) {
  const rows = await ctx.db
    .select()
    .from(visitors)
    .where(
      and(
        eq(visitors.residentId, requireUser(ctx).userId),
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
 * Staff see every request; a guard (satpam without a staff duty) sees today's guests only, whatever
 * dates they ask for: the gate's list, not the community's visiting history.
 */
export async function listVisitors({ ctx, input }: { ctx: TenantCtx; input: VisitorListQuery }) {
  const today = jakartaDay(new Date());
  const [from, to] = isStaff(ctx) ? [input.from, input.to] : [today, today];
  const filters: SQL[] = [
    ...afterCursor(visitors.id, input.cursor, "desc"),
    ...(input.status ? [eq(visitors.status, input.status)] : []),
    ...jakartaDayFilters(visitors.visitAt, from, to),
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

const DATE_FORMAT = new Intl.DateTimeFormat("id-ID", {
  dateStyle: "full",
  timeStyle: "short",
  timeZone: "Asia/Jakarta",
});

/** Tells the resident; a notification service that is down leaves `notifiedAt` null, not a lost approval. */
async function notifyApproval(ctx: TenantCtx, row: VisitorRow): Promise<VisitorRow> {
  const visitDate = `${DATE_FORMAT.format(new Date(row.visitAt))} WIB`;
  const visitUrl = `${ctx.config.APP_URL}/tamu/${row.id}`;
  const told = await tellResident(ctx, row.residentId, {
    template: "VISITOR_APPROVED",
    data: { visitorName: row.guestName, visitDate, visitUrl },
    text: `kunjungan ${row.guestName} pada ${visitDate} telah disetujui pengurus ${ctx.tenant.name}. Kode QR: ${visitUrl}`,
    idempotencyKey: `visitor-approved:${ctx.tenant.slug}:${row.id}`,
  });
  if (!told) {
    return row;
  }
  const notifiedAt = nowIso();
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
  const now = nowIso();
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
  const decidedBy = requireUser(ctx).userId;
  // Only from `menunggu`: a concurrent decision loses here rather than overwriting the first one. The
  // guard aborts the batch (and so the audit record) when this UPDATE was not the one that decided.
  let row: VisitorRow | undefined;
  try {
    [[row]] = await ctx.db.batch([
      ctx.db
        .update(visitors)
        .set({
          status: input.status,
          note: input.note ?? null,
          decidedBy,
          decidedAt: now,
          passValidFrom: window?.validFrom ?? null,
          passValidUntil: window?.validUntil ?? null,
          updatedAt: now,
        })
        .where(and(eq(visitors.id, id), eq(visitors.status, "menunggu")))
        .returning(),
      abortBatchUnless(
        ctx.db,
        visitors,
        id,
        and(eq(visitors.decidedAt, now), eq(visitors.decidedBy, decidedBy)) as SQL,
      ),
      audit(ctx, {
        action: input.status === "disetujui" ? "visitor.approve" : "visitor.reject",
        targetType: "visitor",
        targetId: id,
      }),
    ]);
  } catch (error) {
    if (isBatchAborted(error)) {
      throw new Conflict("invalid_transition", "This request was decided meanwhile.");
    }
    throw error;
  }
  if (!row) {
    throw new NotFound("Visitor request");
  }
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
/** A scanned pass and which way the guest is going (the staff route's path, or the device's event). */
export interface GateScan {
  qr: string;
  direction: GateDirection;
}

/** Why a scanned pass did not let the guest through: the codes the gate and the staff routes answer. */
export type GateRefusal =
  | "not_found"
  | "not_approved"
  | "pass_used"
  | "already_checked_in"
  | "already_checked_out"
  | "not_checked_in";

/** A pass that went through: the guest as the row stands after the check-in or check-out. */
export interface GatePassed {
  visitorId: string;
  guestName: string;
  checkedInAt: string | null;
  checkedOutAt: string | null;
}

/** A code or status as an SQL literal: typed, so the SQL cannot name a code the answers do not know. */
const literal = (value: GateRefusal | VisitorRow["status"]) => `'${value}'`;

/**
 * The refusal rule, the one place it is written: over the visitor row whose columns `row` qualifies (all
 * NULL when there is no such row), NULL when a scan going `direction` lets the guest through, else the
 * refusal code. The conditional UPDATE takes it as its condition and the statement before it in the
 * scan's batch reads it, so what a scan records and answers is what the UPDATE did (a D1 batch is one
 * transaction). Names come from `visitors` in tables.ts.
 */
function refusalSql(direction: GateDirection, row: string): string {
  const col = (column: SQLiteColumn) => `${row}.${sqlName(column)}`;
  const missing = `WHEN ${col(visitors.id)} IS NULL THEN ${literal("not_found")}`;
  const unapproved = `WHEN ${col(visitors.status)} <> ${literal("disetujui")} THEN ${literal("not_approved")}`;
  const inside = `${col(visitors.checkedInAt)} IS NOT NULL AND ${col(visitors.checkedOutAt)} IS NULL`;
  const left = `WHEN ${col(visitors.checkedOutAt)} IS NOT NULL`;
  return direction === "in"
    ? `CASE ${missing} ${unapproved} WHEN ${col(visitors.checkedInAt)} IS NULL THEN NULL ` +
        `${left} THEN ${literal("pass_used")} ELSE ${literal("already_checked_in")} END`
    : `CASE ${missing} WHEN ${inside} THEN NULL ${unapproved} ` +
        `${left} THEN ${literal("already_checked_out")} ELSE ${literal("not_checked_in")} END`;
}

const VISITORS = sqlName(visitors);
const DIRECTIONS: readonly GateDirection[] = ["in", "out"];
const byDirection = (sql: (direction: GateDirection) => string) =>
  Object.fromEntries(DIRECTIONS.map((d) => [d, sql(d)])) as Record<GateDirection, string>;

/**
 * The gate's hot path in raw prepared statements (a gate waits on this answer; drizzle's query building
 * was a measurable part of it, ADR 0015): the scan's outcome (or the caller's record of it) and the
 * conditional UPDATE returning the row as it stands after it, in one batch, so one round trip answers
 * both an accepted pass and a refused one with its reason. Two gates scanning the same pass at once
 * record one check-in; the loser reads why. Parameters: ?1 the visitor, ?2 when, ?3 who.
 */
const PASS_SQL = byDirection((direction) => {
  const [at, by] =
    direction === "in"
      ? [visitors.checkedInAt, visitors.checkedInBy]
      : [visitors.checkedOutAt, visitors.checkedOutBy];
  return (
    `UPDATE ${VISITORS} SET ${sqlName(at)} = ?2, ${sqlName(by)} = ?3, ${sqlName(visitors.updatedAt)} = ?2 ` +
    `WHERE ${sqlName(visitors.id)} = ?1 AND (${refusalSql(direction, VISITORS)}) IS NULL ` +
    `RETURNING ${sqlName(visitors.guestName)} AS guestName, ${sqlName(visitors.checkedInAt)} AS checkedInAt, ` +
    `${sqlName(visitors.checkedOutAt)} AS checkedOutAt`
  );
});

/** The scan's outcome over the row as the UPDATE will find it: one row, `refused` (NULL: it goes through). */
const OUTCOME_SQL = byDirection(
  (direction) =>
    `SELECT ${refusalSql(direction, "v")} AS refused FROM (SELECT ?1 AS id) AS p ` +
    `LEFT JOIN ${VISITORS} AS v ON v.${sqlName(visitors.id)} = p.id`,
);

/**
 * A row the caller writes in the scan's own batch, before the UPDATE (the gate's event log): a row of the
 * caller's own table, declared once with drizzle's column objects. Visitor writes the statement, an
 * `INSERT … SELECT` over the scan's outcome that returns the refusal it recorded, so no SQL text crosses
 * between the modules and a renamed column on either side renames it in the statement.
 */
export interface ScanLog {
  table: SQLiteTable;
  /** Columns written with each record's `values`, in this order. */
  columns: readonly SQLiteColumn[];
  /** Takes the visitor's id when the pass goes through, else NULL. */
  visitorId: SQLiteColumn;
  /** Takes `passed` when the pass goes through, else `refused`. */
  verdict: { column: SQLiteColumn; passed: string; refused: string };
  /** Takes the record's `passedReason` when the pass goes through, else the refusal code. */
  reason: SQLiteColumn;
}

/** One scan's row of a `ScanLog`. */
export interface ScanRecord {
  log: ScanLog;
  values: readonly (string | null)[];
  passedReason: string;
}

/** Per log and direction, built once: ?1 the visitor, ?2 … ?4 the verdicts and reason, then the values. */
const recordSqls = new WeakMap<ScanLog, Record<GateDirection, string>>();
function recordSql(log: ScanLog, direction: GateDirection): string {
  let sqls = recordSqls.get(log);
  if (!sqls) {
    const columns = [...log.columns, log.visitorId, log.verdict.column, log.reason].map(sqlName).join(", ");
    const values = log.columns.map((_, i) => `?${i + 5}`).join(", ");
    sqls = byDirection(
      (d) =>
        `INSERT INTO ${sqlName(log.table)} (${columns}) ` +
        `SELECT ${values}, CASE WHEN refused IS NULL THEN ?1 END, ` +
        "CASE WHEN refused IS NULL THEN ?2 ELSE ?3 END, coalesce(refused, ?4) " +
        `FROM (${OUTCOME_SQL[d]}) ` +
        `RETURNING CASE WHEN ${sqlName(log.visitorId)} IS NULL THEN ${sqlName(log.reason)} END AS refused`,
    );
    recordSqls.set(log, sqls);
  }
  return sqls[direction];
}

/**
 * Lets a verified pass through the gate, or says why not, without throwing: the device's webhook turns a
 * refusal into an answer (keep the door shut), not an error. A forged, foreign, expired or not yet valid
 * pass still throws (verifyPass), before any round trip. `record` rides in the same batch.
 */
export async function gatePass({
  ctx,
  input,
  record,
}: {
  ctx: TenantCtx;
  input: GateScan;
  record?: ScanRecord;
}): Promise<{ passed: GatePassed } | { refused: GateRefusal }> {
  const visitorId = await verifyPass(ctx.config, input.qr.trim(), ctx.tenant.slug);
  const d1 = rawD1(ctx);
  const pass = d1.prepare(PASS_SQL[input.direction]).bind(visitorId, nowIso(), gateOperator(ctx));
  // The outcome before the UPDATE, then the UPDATE: from the caller's record when it writes one, else
  // read alone. A D1 batch is one transaction, so both see the same row.
  const outcome = record
    ? d1
        .prepare(recordSql(record.log, input.direction))
        .bind(
          visitorId,
          record.log.verdict.passed,
          record.log.verdict.refused,
          record.passedReason,
          ...record.values,
        )
    : d1.prepare(OUTCOME_SQL[input.direction]).bind(visitorId);
  const [before, updated] = await d1.batch<unknown>([outcome, pass]);
  const passed = updated?.results[0] as Omit<GatePassed, "visitorId"> | undefined;
  if (passed) {
    return {
      passed: {
        visitorId,
        guestName: passed.guestName,
        checkedInAt: passed.checkedInAt,
        checkedOutAt: passed.checkedOutAt,
      },
    };
  }
  const refused = (before?.results[0] as { refused: GateRefusal | null } | undefined)?.refused;
  if (!refused) {
    throw new Error("the scan's outcome said the pass goes through, but the UPDATE changed nothing");
  }
  return { refused };
}

const REFUSED: Record<GateRefusal, () => DomainError> = {
  not_found: () => new NotFound("Visitor request"),
  not_approved: () => new Conflict("not_approved", "This request is not approved."),
  pass_used: () => new Conflict("pass_used", "This guest has already left; the pass cannot be used again."),
  already_checked_in: () => new Conflict("already_checked_in", "This guest is already inside."),
  already_checked_out: () => new Conflict("already_checked_out", "This guest has already left."),
  not_checked_in: () => new Conflict("not_checked_in", "This guest has not checked in."),
};

/** The problem a refusal answers on the staff routes (the device gets the code as its `reason`). */
export function gateRefusalError(refusal: GateRefusal): DomainError {
  return REFUSED[refusal]();
}

/**
 * Checks a guest in or out by the scanned pass (the staff routes): `gatePass`, with a refusal thrown as
 * its problem (404 for an unknown visitor, 409 with the reason otherwise).
 */
export async function passGate({ ctx, input }: { ctx: TenantCtx; input: GateScan }): Promise<GatePassed> {
  const outcome = await gatePass({ ctx, input });
  if ("refused" in outcome) {
    throw gateRefusalError(outcome.refused);
  }
  return outcome.passed;
}

/**
 * A member leaves the community (members module): their requests still waiting and their approved
 * passes not yet used become `ditolak`, so no guest is let in on the word of someone who no longer
 * lives there. A guest already inside can still check out. Idempotent: a second call finds nothing
 * and writes nothing. Returns how many were revoked.
 */
export async function revokePassesOf({ ctx, userId }: { ctx: TenantCtx; userId: string }): Promise<number> {
  const open = and(
    eq(visitors.residentId, userId),
    or(eq(visitors.status, "menunggu"), and(eq(visitors.status, "disetujui"), isNull(visitors.checkedInAt))),
  );
  const pending = await ctx.db.select({ id: visitors.id }).from(visitors).where(open);
  if (pending.length === 0) {
    return 0;
  }
  const now = nowIso();
  const [revoked] = await ctx.db.batch([
    ctx.db
      .update(visitors)
      .set({
        status: "ditolak",
        note: "Pendaftar tidak lagi menjadi anggota komunitas.",
        decidedBy: requireUser(ctx).userId,
        decidedAt: now,
        passValidFrom: null,
        passValidUntil: null,
        updatedAt: now,
      })
      .where(open)
      .returning({ id: visitors.id }),
    audit(ctx, {
      action: "visitor.revoke_member",
      targetType: "user",
      targetId: userId,
      detail: { visitorIds: pending.map((p) => p.id) },
    }),
  ]);
  return revoked.length;
}

/** Dashboard indicator: guests awaiting approval. */
export function countAwaitingGuests(ctx: TenantCtx): Promise<number> {
  return ctx.db.$count(visitors, eq(visitors.status, "menunggu"));
}
