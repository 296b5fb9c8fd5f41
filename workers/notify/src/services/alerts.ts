import { desc, gte, sql } from "drizzle-orm";
import type { DeliveryAlert } from "../../../../src/platform/notify/types";
import { type Channel, type messages, operatorAlerts } from "../db/schema";
import type { DeliveryResult } from "../providers/types";
import type { ServiceContext } from "./context";
import { fingerprint } from "./fingerprint";
import { enqueue } from "./outbox";

/**
 * Operator alerts (docs/adr/0039): delivery trouble is never silent. A message still `retrying` after its
 * second attempt, or given up on (`failed`, `dead`), raises an alert: it is counted in `operator_alerts`
 * (shown by GET /v1/stats, which the operators' deep health view reads) and, the first time its cause is
 * seen in a UTC hour, emailed to the operators' inbox (SUPPORT_OPERATOR_EMAILS).
 *
 * The alert email is itself a message of this service, marked by its reference. If it fails too (the email
 * provider is the broken part), that failure is counted and shown like any other, but never emailed: an
 * alert about an alert email would go through the same broken provider, and so on for ever.
 */

export const ALERT_REFERENCE_PREFIX = "operator-alert:";

/** A message that keeps failing is worth an operator's look after this many attempts. */
export const ALERT_AFTER_ATTEMPTS = 2;

export type AlertStatus = "retrying" | "failed" | "dead";

type MessageRow = typeof messages.$inferSelect;

/**
 * The error with what differs between messages of one cause taken out (ids, addresses, long numbers,
 * times), so a thousand tickets failing the same way are one cause. Status codes (3 digits) stay.
 */
export function normaliseError(error: string): string {
  return error
    .replace(/[0-9A-HJKMNP-TV-Z]{26}/g, "<id>")
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "<id>")
    .replace(/[^\s<>"'@,;]+@[^\s<>"'@,;]+/g, "<address>")
    .replace(/\d{4}-\d{2}-\d{2}T[\d:.]+Z?/g, "<time>")
    .replace(/\d{4,}/g, "<n>")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 300);
}

/** Whether this attempt's outcome raises an alert, and as what. */
export function alertStatusOf(
  outcome: "sent" | "failed" | "dead" | "retrying" | "unknown",
  attempts: number,
  result: DeliveryResult,
): AlertStatus | null {
  if (result.ok) {
    return null;
  }
  // A push token gone for good (the app was removed) is routine: the device is deactivated instead.
  if (result.deactivateToken) {
    return null;
  }
  switch (outcome) {
    case "failed":
      return "failed";
    case "dead":
    case "unknown":
      return "dead";
    case "retrying":
      return attempts >= ALERT_AFTER_ATTEMPTS ? "retrying" : null;
    default:
      return null;
  }
}

export interface RaisedAlert {
  cause: string;
  hour: string;
  /** True for the first occurrence of this cause this hour: the one that emails. */
  first: boolean;
  /** The alert email's message ids, empty when none was sent. */
  emailed: string[];
}

export interface AlertInput {
  message: Pick<MessageRow, "id" | "channel" | "template" | "reference">;
  provider: string;
  status: AlertStatus;
  error: string;
}

export const isAlertEmail = (message: Pick<MessageRow, "reference">) =>
  message.reference?.startsWith(ALERT_REFERENCE_PREFIX) ?? false;

/** The queue is optional: without one (a test's bare consumer) the alert is counted but not emailed. */
export type AlertContext = Omit<ServiceContext, "queue"> & { queue?: ServiceContext["queue"] };

export async function raiseAlert(ctx: AlertContext, input: AlertInput): Promise<RaisedAlert> {
  const now = ctx.now();
  const nowIso = now.toISOString();
  const hour = nowIso.slice(0, 13);
  const kind = input.message.template ?? "raw";
  const error = normaliseError(input.error);
  const cause = `${input.message.channel}|${input.provider}|${kind}|${error}`;
  // The insert decides who is first: one row per (cause, hour), so of any number of consumers raising
  // the same cause at once, exactly one sees count = 1.
  const row = await ctx.db
    .insert(operatorAlerts)
    .values({
      cause,
      hour,
      channel: input.message.channel as Channel,
      provider: input.provider,
      kind,
      status: input.status,
      error,
      count: 1,
      firstAt: nowIso,
      lastAt: nowIso,
      lastMessageId: input.message.id,
    })
    .onConflictDoUpdate({
      target: [operatorAlerts.cause, operatorAlerts.hour],
      set: {
        count: sql`${operatorAlerts.count} + 1`,
        status: input.status,
        lastAt: nowIso,
        lastMessageId: input.message.id,
      },
    })
    .returning({ count: operatorAlerts.count })
    .get();
  const first = row?.count === 1;
  const inbox = ctx.config.operatorEmails;
  const queue = ctx.queue;
  if (!first || inbox.length === 0 || isAlertEmail(input.message) || !queue) {
    return { cause, hour, first, emailed: [] };
  }
  const brand = ctx.config.brand.name;
  const label = `${input.message.channel} ${kind} via ${input.provider}`;
  const statusText = {
    retrying: `masih dicoba ulang setelah ${ALERT_AFTER_ATTEMPTS} kali percobaan`,
    failed: "ditolak penyedia (tidak dicoba lagi)",
    dead: "gagal terkirim dan tidak dicoba lagi",
  }[input.status];
  const { messageIds } = await enqueue(
    { ...ctx, queue },
    {
      operation: "alerts.email",
      // The same cause and hour never emails twice, even if this runs again after a crash.
      idempotencyKey: `${await fingerprint(cause)}:${hour}`,
      request: { cause, hour },
      build: () =>
        inbox.map((to) => ({
          channel: "email" as const,
          recipient: to,
          subject: `[${brand}] Peringatan pengiriman: ${label}`.slice(0, 300),
          reference: `${ALERT_REFERENCE_PREFIX}${hour}`,
          payload: {
            to,
            subject: `[${brand}] Peringatan pengiriman: ${label}`.slice(0, 300),
            text: [
              `Sebuah pesan ${label} ${statusText}.`,
              "",
              `Penyebab: ${error}`,
              `Pesan: ${input.message.id}`,
              `Sejak: ${nowIso}`,
              "",
              "Peringatan untuk penyebab yang sama dikirim paling banyak sekali per jam; jumlahnya terlihat di",
              "GET /api/platform/health (notify.alerts). Setelah diperbaiki, kirim ulang pesan yang gagal dengan",
              "POST /v1/messages/:id/retry.",
              "",
              `(${brand} delivery alert: ${input.status}; cause ${cause})`,
            ].join("\n"),
          },
        })),
    },
  );
  await ctx.db
    .update(operatorAlerts)
    .set({ emailMessageId: messageIds[0] ?? null })
    .where(sql`${operatorAlerts.cause} = ${cause} AND ${operatorAlerts.hour} = ${hour}`);
  return { cause, hour, first, emailed: messageIds };
}

/** One alert as the stats answer it: the wire shape the API reads (src/platform/notify/types.ts). */
export type AlertView = DeliveryAlert;

/** How far back the stats show alerts. */
export const ALERT_WINDOW_HOURS = 24;
const ALERTS_SHOWN = 20;

/** The newest alerts of the last day, newest first. */
export async function recentAlerts(ctx: ServiceContext): Promise<AlertView[]> {
  const since = new Date(ctx.now().getTime() - ALERT_WINDOW_HOURS * 3_600_000).toISOString();
  const rows = await ctx.db
    .select()
    .from(operatorAlerts)
    .where(gte(operatorAlerts.lastAt, since))
    .orderBy(desc(operatorAlerts.lastAt))
    .limit(ALERTS_SHOWN)
    .all();
  return rows.map(({ emailMessageId, ...row }) => ({ ...row, emailed: emailMessageId !== null }));
}
