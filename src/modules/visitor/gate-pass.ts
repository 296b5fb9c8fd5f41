import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { TenantCtx } from "../../core/context";
import { carryingOwnerCheck, rawD1, sqlName } from "../../core/db/raw";
import { Conflict, type DomainError, NotFound } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { nowIso } from "../../core/time";
import { verifyPass } from "./pass";
import { visitorPassages, visitors } from "./tables";

/**
 * The gate: a scanned pass checks its guest in or out in one conditional UPDATE, and a refusal says why
 * (the staff routes answer it as a problem, a gate device as its reason).
 */

type VisitorRow = typeof visitors.$inferSelect;

/** Who let a guest through: a staff member at the gate, or a gate device (`device:<id>`). */
function gateOperator(ctx: TenantCtx): string {
  return ctx.actor.kind === "device" ? `device:${ctx.actor.deviceId}` : requireUser(ctx).userId;
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
  // A stay of several days goes out and in again while its pass is valid (verifyPass checked the window).
  const reentry = `${left} AND ${col(visitors.multiEntry)} = 1 THEN NULL`;
  return direction === "in"
    ? `CASE ${missing} ${unapproved} WHEN ${col(visitors.checkedInAt)} IS NULL THEN NULL ${reentry} ` +
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
  // An entry (a first one, or a re-entry on a multi-day pass) opens a new stay inside: no exit yet.
  const reopen =
    direction === "in"
      ? `, ${sqlName(visitors.checkedOutAt)} = NULL, ${sqlName(visitors.checkedOutBy)} = NULL`
      : "";
  return (
    `UPDATE ${VISITORS} SET ${sqlName(at)} = ?2, ${sqlName(by)} = ?3, ${sqlName(visitors.updatedAt)} = ?2${reopen} ` +
    `WHERE ${sqlName(visitors.id)} = ?1 AND (${refusalSql(direction, VISITORS)}) IS NULL ` +
    `RETURNING ${sqlName(visitors.guestName)} AS guestName, ${sqlName(visitors.checkedInAt)} AS checkedInAt, ` +
    `${sqlName(visitors.checkedOutAt)} AS checkedOutAt`
  );
});

/**
 * The passage, after the UPDATE in the same batch: written only when the UPDATE let the guest through
 * (the row now carries this scan's time and operator). ?1 the visitor, ?2 when, ?3 who, ?4 the new id.
 */
const PASSAGE_SQL = byDirection((direction) => {
  const [at, by] =
    direction === "in"
      ? [visitors.checkedInAt, visitors.checkedInBy]
      : [visitors.checkedOutAt, visitors.checkedOutBy];
  const p = visitorPassages;
  return (
    `INSERT INTO ${sqlName(p)} (${sqlName(p.id)}, ${sqlName(p.visitorId)}, ${sqlName(p.direction)}, ` +
    `${sqlName(p.at)}, ${sqlName(p.passedBy)}) SELECT ?4, ?1, '${direction}', ?2, ?3 FROM ${VISITORS} ` +
    `WHERE ${sqlName(visitors.id)} = ?1 AND ${sqlName(at)} = ?2 AND ${sqlName(by)} = ?3`
  );
});

/** The scan's outcome over the row as the UPDATE will find it: one row, `refused` (NULL: it goes through). */
const outcomeSql = (direction: GateDirection, limit = "") =>
  `SELECT ${refusalSql(direction, "v")} AS refused FROM (SELECT ?1 AS id) AS p ` +
  `LEFT JOIN ${VISITORS} AS v ON v.${sqlName(visitors.id)} = p.id${limit ? ` ${limit}` : ""}`;
/** Read alone (a staff member's scan), it leads the scan's batch, so it carries the slot owner check. */
const OUTCOME_SQL = byDirection((direction) =>
  carryingOwnerCheck(1, (limit) => outcomeSql(direction, limit)),
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
    // It leads the scan's batch, so it carries the slot owner check (a LIMIT of its SELECT).
    sqls = byDirection((d) =>
      carryingOwnerCheck(
        4 + log.columns.length,
        (limit) =>
          `INSERT INTO ${sqlName(log.table)} (${columns}) ` +
          `SELECT ${values}, CASE WHEN refused IS NULL THEN ?1 END, ` +
          "CASE WHEN refused IS NULL THEN ?2 ELSE ?3 END, coalesce(refused, ?4) " +
          `FROM (${outcomeSql(d)}) ${limit ? `${limit} ` : ""}` +
          `RETURNING CASE WHEN ${sqlName(log.visitorId)} IS NULL THEN ${sqlName(log.reason)} END AS refused`,
      ),
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
  const visitorId = await verifyPass(ctx.config, input.qr.trim(), ctx.tenant.slug, ctx.now());
  return gateById({ ctx, visitorId, direction: input.direction, record });
}

/**
 * `gatePass` for a visitor already known to be this community's: after a verified pass, or a guard's
 * exit from the list of who is inside (no pass to scan then; an exit is never refused for a window).
 */
export async function gateById({
  ctx,
  visitorId,
  direction,
  record,
}: {
  ctx: TenantCtx;
  visitorId: string;
  direction: GateDirection;
  record?: ScanRecord;
}): Promise<{ passed: GatePassed } | { refused: GateRefusal }> {
  const input = { direction };
  const d1 = rawD1(ctx);
  const at = nowIso(ctx);
  const operator = gateOperator(ctx);
  const pass = d1.prepare(PASS_SQL[input.direction]).bind(visitorId, at, operator);
  const passage = d1.prepare(PASSAGE_SQL[input.direction]).bind(visitorId, at, operator, newId());
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
  const [before, updated] = await d1.batch<unknown>([outcome, pass, passage]);
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
