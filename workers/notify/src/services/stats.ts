import { sql } from "drizzle-orm";
import { type Channel, channels } from "../db/schema";
import { type AlertView, recentAlerts } from "./alerts";
import type { ServiceContext } from "./context";

/** How many of the last failures per channel the stats carry. */
export const LAST_FAILURES = 5;

export interface Failure {
  messageId: string;
  status: "failed" | "dead";
  attempts: number;
  error: string | null;
  at: string;
}

export interface Stats {
  backlog: { queued: number; sending: number; retrying: number; total: number; oldestAt: string | null };
  /** Messages that exhausted their retries and went through the dead-letter queue. */
  deadLetters: number;
  /** Messages a provider refused for good (no retry). */
  failed: number;
  lastFailures: Record<Channel, Failure[]>;
  /** Operator alerts of the last 24 hours, newest first (services/alerts.ts). */
  alerts: AlertView[];
}

/**
 * The operator's view of the delivery pipeline (GET /api/platform/health): the queue backlog as the
 * delivery log sees it (messages not yet delivered nor given up on), the dead-letter count and the
 * newest failures per channel. Queues expose no backlog to a Worker; the log is the source of truth.
 * Recipients stay out: an operator sees what failed and why, not to whom.
 */
export async function deliveryStats(ctx: ServiceContext): Promise<Stats> {
  const [counts, oldest, failures, alerts] = await Promise.all([
    ctx.db.all<{ status: string; n: number }>(
      sql`SELECT status, count(*) AS n FROM messages WHERE status IN ('queued', 'sending', 'retrying', 'failed', 'dead') GROUP BY status`,
    ),
    ctx.db.all<{ at: string | null }>(
      sql`SELECT min(created_at) AS at FROM messages WHERE status IN ('queued', 'sending', 'retrying')`,
    ),
    ctx.db.all<{
      id: string;
      channel: Channel;
      status: "failed" | "dead";
      attempts: number;
      error: string | null;
      at: string;
    }>(
      sql`SELECT id, channel, status, attempts, error, at FROM (
            SELECT id, channel, status, attempts, last_error AS error, updated_at AS at,
                   row_number() OVER (PARTITION BY channel ORDER BY updated_at DESC, id DESC) AS rn
            FROM messages WHERE status IN ('failed', 'dead'))
          WHERE rn <= ${LAST_FAILURES} ORDER BY channel, at DESC, id DESC`,
    ),
    recentAlerts(ctx),
  ]);
  const count = (status: string) => counts.find((r) => r.status === status)?.n ?? 0;
  const lastFailures = Object.fromEntries(channels.map((ch) => [ch, [] as Failure[]])) as Record<
    Channel,
    Failure[]
  >;
  for (const row of failures) {
    lastFailures[row.channel]?.push({
      messageId: row.id,
      status: row.status,
      attempts: row.attempts,
      error: row.error,
      at: row.at,
    });
  }
  const queued = count("queued");
  const sending = count("sending");
  const retrying = count("retrying");
  return {
    backlog: {
      queued,
      sending,
      retrying,
      total: queued + sending + retrying,
      oldestAt: oldest[0]?.at ?? null,
    },
    deadLetters: count("dead"),
    failed: count("failed"),
    lastFailures,
    alerts,
  };
}
