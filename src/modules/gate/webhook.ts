import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { TenantCtx } from "../../core/context";
import { gateDevices } from "../../core/db/platform-schema";
import { DomainError, Unauthorized } from "../../core/errors";
import { log } from "../../core/http/log";
import { newId } from "../../core/ids";
import type { After } from "../../core/sharedCalls";
import { gatePass, type ScanLog, type ScanRecord } from "../visitor/service";
import { adapters, type NormalisedEvent } from "./adapters";
import { recordEvent } from "./eventLog";
import { gateEvents } from "./tables";

// A gate device's webhook (ADR 0008): its event normalised by its adapter, the pass checked and the
// scan logged by visitor's gatePass, the device's last-seen time kept fresh.

/**
 * The event row of a scan, written in the scan's own batch (visitor's `gatePass`), before its
 * conditional UPDATE: visitor writes it with the outcome over the visitor row as the UPDATE finds it, so
 * the log says exactly what the gate did, and the scan costs one round trip in all. The gate names its
 * own columns here; visitor's SQL stays visitor's.
 */
const SCAN_LOG: ScanLog = {
  table: gateEvents,
  columns: [gateEvents.id, gateEvents.deviceId, gateEvents.kind, gateEvents.direction, gateEvents.occurredAt],
  visitorId: gateEvents.visitorId,
  verdict: { column: gateEvents.action, passed: "open", refused: "deny" },
  reason: gateEvents.reason,
};

interface Outcome {
  action: "open" | "deny" | "none";
  reason: string;
  visitorId: string | null;
  /** Whether the event row was written with the outcome (a scan's batch); else it is written after. */
  recorded: boolean;
}

async function act(
  ctx: TenantCtx,
  event: NormalisedEvent,
  row: { id: string; deviceId: string },
): Promise<Outcome> {
  if (event.kind !== "qr_scan" || !event.qr || !event.direction) {
    return { action: "none", reason: "recorded", visitorId: null, recorded: false };
  }
  const input = { qr: event.qr, direction: event.direction };
  const passReason = event.direction === "in" ? "checked_in" : "checked_out";
  const record: ScanRecord = {
    log: SCAN_LOG,
    values: [row.id, row.deviceId, "qr_scan", event.direction, event.occurredAt],
    passedReason: passReason,
  };
  try {
    let outcome: Awaited<ReturnType<typeof gatePass>>;
    let recorded = true;
    try {
      outcome = await gatePass({ ctx, input, record });
    } catch (error) {
      if (error instanceof DomainError) {
        throw error;
      }
      // The batch failed (the event log cannot be written, most likely): the gate still gets its answer
      // from the scan alone, and the event row is written after the answer (retried, else kept whole in
      // the error log).
      log("warn", "gate_scan_batch_failed", { requestId: ctx.requestId, error: String(error) });
      outcome = await gatePass({ ctx, input });
      recorded = false;
    }
    if ("refused" in outcome) {
      // A refused pass is an answer for the device (keep the door shut), not an error of the webhook.
      return { action: "deny", reason: outcome.refused, visitorId: null, recorded };
    }
    return { action: "open", reason: passReason, visitorId: outcome.passed.visitorId, recorded };
  } catch (error) {
    // So is a pass that is forged, another community's, expired or not valid yet (no round trip made).
    if (error instanceof DomainError) {
      return { action: "deny", reason: error.code, visitorId: null, recorded: false };
    }
    throw error;
  }
}

/** How fresh a device's last-seen time is kept: a liveness hint, not a record of every event. */
const LAST_SEEN_RESOLUTION_MS = 60_000;
/**
 * When this isolate last wrote each device's last-seen time: within the resolution it does not even
 * send the (conditional, no-op) UPDATE, so a busy gate's steady state touches the platform database
 * not at all. Other isolates still guard with the condition. Bounded like the guard's device cache.
 */
const lastSeenWritten = new Map<string, number>();
const LAST_SEEN_MAX = 1_000;

function lastSeenDue(deviceId: string, now: number): boolean {
  const written = lastSeenWritten.get(deviceId);
  return written === undefined || now - written >= LAST_SEEN_RESOLUTION_MS;
}

function noteLastSeen(deviceId: string, now: number): void {
  lastSeenWritten.delete(deviceId);
  if (lastSeenWritten.size >= LAST_SEEN_MAX) {
    const oldest = lastSeenWritten.keys().next().value;
    if (oldest !== undefined) {
      lastSeenWritten.delete(oldest);
    }
  }
  lastSeenWritten.set(deviceId, now);
}

/**
 * The device's last-seen time, a liveness hint on the control-plane row kept to the minute, written
 * after the answer: at most one write a minute per device (an UPDATE that matches no row commits
 * nothing), and this isolate skips it altogether while its own last write is fresh. A failure is a
 * warning.
 */
async function touchLastSeen(ctx: TenantCtx, deviceId: string): Promise<void> {
  const now = ctx.now().getTime();
  if (!lastSeenDue(deviceId, now)) {
    return;
  }
  try {
    await ctx.platform
      .update(gateDevices)
      .set({ lastSeenAt: new Date(now).toISOString() })
      .where(
        and(
          eq(gateDevices.id, deviceId),
          or(
            isNull(gateDevices.lastSeenAt),
            lt(gateDevices.lastSeenAt, new Date(now - LAST_SEEN_RESOLUTION_MS).toISOString()),
          ),
        ),
      );
    noteLastSeen(deviceId, now);
  } catch (error) {
    log("warn", "gate_last_seen_failed", {
      requestId: ctx.requestId,
      device: deviceId,
      error: String(error),
    });
  }
}

function isAdapter(name: string): name is keyof typeof adapters {
  return Object.hasOwn(adapters, name);
}

/**
 * One event from a gate device. The route guard has already proved the key and read the device's
 * adapter (device scope: unknown or deleted → 401, deactivated → 403, tenant suspended or `tamu` off →
 * 403); `input` is the raw body, read by that adapter. A scan costs one tenant round trip in all: the
 * event row, the conditional check-in and the reason in one batch of prepared statements. Other events
 * answer without a round trip and write their row after the answer, sharing writes with the rows of
 * other answers (`recordEvent`); last-seen is written after the answer too, through `after`. Steady
 * state, nothing reads the platform database.
 */
export async function handleWebhook({ ctx, input, after }: { ctx: TenantCtx; input: unknown; after: After }) {
  if (ctx.actor.kind !== "device" || !isAdapter(ctx.actor.adapter)) {
    throw new Unauthorized("invalid_device_key", "This route is for gate devices.");
  }
  const deviceId = ctx.actor.deviceId;
  const event = adapters[ctx.actor.adapter](input, ctx.now());
  const eventId = newId();
  const outcome = await act(ctx, event, { id: eventId, deviceId });
  after(
    Promise.all([
      outcome.recorded
        ? undefined
        : recordEvent(ctx, {
            id: eventId,
            deviceId,
            kind: event.kind,
            direction: event.direction,
            visitorId: outcome.visitorId,
            action: outcome.action,
            reason: outcome.reason,
            occurredAt: event.occurredAt,
          }),
      touchLastSeen(ctx, deviceId),
    ]),
  );
  // No log line of its own: the access line has the request, the event log row has the outcome (a line
  // per scan was a measurable part of the webhook's CPU, ADR 0015); `debug` keeps it for local tracing.
  log("debug", "gate_event", {
    requestId: ctx.requestId,
    device: deviceId,
    kind: event.kind,
    action: outcome.action,
    reason: outcome.reason,
  });
  return { action: outcome.action, reason: outcome.reason, eventId };
}
