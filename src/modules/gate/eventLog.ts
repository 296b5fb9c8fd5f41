import type { TenantCtx } from "../../core/context";
import { rawD1, sqlName } from "../../core/db/raw";
import { log } from "../../core/http/log";
import { sharedCalls } from "../../core/sharedCalls";
import { gateEvents } from "./tables";

export type EventRow = typeof gateEvents.$inferInsert;

const COLUMNS = [
  gateEvents.id,
  gateEvents.deviceId,
  gateEvents.kind,
  gateEvents.direction,
  gateEvents.visitorId,
  gateEvents.action,
  gateEvents.reason,
  gateEvents.occurredAt,
];
const INSERT_EVENT_SQL =
  `INSERT INTO ${sqlName(gateEvents)} (${COLUMNS.map(sqlName).join(", ")}) ` +
  `VALUES (${COLUMNS.map((_, i) => `?${i + 1}`).join(", ")}) ON CONFLICT (${sqlName(gateEvents.id)}) DO NOTHING`;

/** Event rows written after their answers share round trips, at most this many rows in one. */
const eventWrites = sharedCalls<EventRow, void>(50);

/** A write of `rows` in one round trip (a batch of prepared inserts), tried twice, else logged whole. */
async function write(ctx: TenantCtx, rows: EventRow[]): Promise<void> {
  // Prepared statements rather than drizzle's builder: this runs on most device events (ADR 0015).
  const d1 = rawD1(ctx);
  const insert = () =>
    d1.batch(
      rows.map((row) =>
        d1
          .prepare(INSERT_EVENT_SQL)
          .bind(
            row.id,
            row.deviceId,
            row.kind,
            row.direction ?? null,
            row.visitorId ?? null,
            row.action,
            row.reason,
            row.occurredAt,
          ),
      ),
    );
  // Ids make the insert idempotent: a retry after a write that did land changes nothing.
  await insert()
    .catch(insert)
    .catch((error: unknown) => {
      for (const row of rows) {
        log("error", "gate_event_unrecorded", { requestId: ctx.requestId, row, error: String(error) });
      }
    });
}

/**
 * Writes the event row of an event whose answer is already on its way (ADR 0008): heartbeats, door
 * events, refused passes, a scan whose batch failed. Resolves once the row is committed, or once a
 * retried write failed and the whole row went to the error log (no pass, no personal data in it), so an
 * operator can restore it; the caller hands the promise to `waitUntil`.
 *
 * Rows share round trips (core/sharedCalls.ts): while a write for the community is in flight, later
 * rows wait for it and then go together in the next one, so a busy gate sends one write per round trip
 * instead of queueing a write per event behind the last. Each caller's own `waitUntil` stays open until
 * a write that carried its row has finished.
 */
export function recordEvent(ctx: TenantCtx, row: EventRow): Promise<void> {
  return eventWrites(ctx.tenant.slug, row, async (rows) => {
    await write(ctx, rows);
    return rows.map(() => undefined);
  });
}
