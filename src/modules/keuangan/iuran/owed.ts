import { eq, type SQL, sql } from "drizzle-orm";
import type { TenantCtx } from "../../../core/context";
import { jakartaDay } from "../../../core/time";
import {
  DEFAULT_DUE_DAY,
  daysSincePeriodStart,
  dueDateOf,
  isOverdue,
  periodDays,
  periodOf,
  previousPeriod,
} from "../periods";
import { duesTypes } from "../tables";

// --- what is owed when: the latest period owed and the aging buckets' edges ------------------------

export type Buckets = ReturnType<typeof bucketStarts>;
/** The bucket edges as the statements take them: periods, or SQL that reads one (`bucketsSql`). */
export type BucketEdges = { [K in keyof Buckets]: string | SQL };

/**
 * The month's due date as the arrears see it (issue 45): a bill is tunggakan only once its due day has
 * passed in Asia/Jakarta. The kept balances hold a slot per unit, period and target, not per dues type,
 * so the list takes the latest due day among the active types: no bill is ever called tunggakan before
 * its own due date (a type due earlier waits for the latest). `through` is the latest period owed: the
 * current one once that day has passed, else the one before.
 */
export async function owedThrough(ctx: Pick<TenantCtx, "db">, now: Date) {
  return monthAt(now, await dueDayQuery(ctx).get());
}

/** The latest due day among the active types (`dueDay`, null when none): `monthAt` reads it. */
export function dueDayQuery(ctx: Pick<TenantCtx, "db">) {
  return ctx.db
    .select({ dueDay: sql<number | null>`max(${duesTypes.dueDay})` })
    .from(duesTypes)
    .where(eq(duesTypes.active, true));
}

/** `owedThrough`'s answer from the due day's row. */
export function monthAt(now: Date, row: { dueDay: number | null } | undefined) {
  const dueDay = Number(row?.dueDay ?? DEFAULT_DUE_DAY);
  const current = periodOf(now);
  const overdue = isOverdue(current, dueDay, now);
  return {
    current,
    dueDate: dueDateOf(current, dueDay),
    overdue,
    through: overdue ? current : previousPeriod(current),
  };
}

/**
 * The oldest period still in each aging bucket (0–30, 31–60, 61–90 days since the period began), and as
 * `current` the latest period owed (`owedThrough`): a month not yet due is not in the arrears.
 */
export function bucketStarts(now: Date, through: string) {
  const current = through;
  const starts: string[] = [];
  for (const limit of [30, 60, 90]) {
    let p = current;
    while (daysSincePeriodStart(previousPeriod(p), now) <= limit) {
      p = previousPeriod(p);
    }
    starts.push(p);
  }
  return { current, p30: starts[0] as string, p60: starts[1] as string, p90: starts[2] as string };
}

/**
 * The latest period owed at `now` as SQL (`owedThrough` inside the statement, for the dashboard's
 * synchronous queries): the current period once the active types' latest due day has passed, else the one
 * before.
 */
export function owedThroughSql(now: Date) {
  const current = periodOf(now);
  const day = Number(jakartaDay(now).slice(8));
  const lastDay = Number(periodDays(current).last.slice(8));
  return sql`CASE WHEN ${day} > min(${lastDay}, (SELECT coalesce(max(${duesTypes.dueDay}), ${DEFAULT_DUE_DAY}) FROM ${duesTypes} WHERE ${duesTypes.active} = 1)) THEN ${current} ELSE ${previousPeriod(current)} END`;
}

/**
 * The bucket edges with the latest period owed as SQL (`owedThroughSql`), for a statement that cannot
 * wait for the due day: an edge is the calendar's (the buckets as of the current period) unless the
 * month is not yet due, then no later than the period before. Walking back from the period before
 * stops where walking back from the current one does, or at its start: `bucketStarts(now, through)`
 * is `min(bucketStarts(now, current), through)` edge by edge.
 */
export function bucketsSql(now: Date): BucketEdges {
  const calendar = bucketStarts(now, periodOf(now));
  const through = owedThroughSql(now);
  return {
    current: through,
    p30: sql`min(${calendar.p30}, ${through})`,
    p60: sql`min(${calendar.p60}, ${through})`,
    p90: sql`min(${calendar.p90}, ${through})`,
  };
}
