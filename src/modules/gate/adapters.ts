import { z } from "zod";
import { Invalid } from "../../core/errors";
import { GenericEvent } from "./schemas";

/** What every adapter turns a device's payload into. */
export interface NormalisedEvent {
  kind: "qr_scan" | "door_opened" | "heartbeat";
  direction: "in" | "out" | null;
  qr: string | null;
  occurredAt: string;
}

function unsupported(detail: string): never {
  throw new Invalid("unsupported_event", `The device event could not be read: ${detail}.`);
}

function generic(body: unknown, receivedAt: Date): NormalisedEvent {
  const parsed = GenericEvent.safeParse(body);
  if (!parsed.success) {
    unsupported(parsed.error.issues.map((i) => `${i.path.join(".") || "body"} ${i.message}`).join("; "));
  }
  const e = parsed.data;
  if (e.event === "qr_scan" && !e.qr) {
    unsupported("qr_scan needs qr");
  }
  return {
    kind: e.event,
    direction: e.event === "qr_scan" ? (e.direction ?? "in") : null,
    qr: e.qr ?? null,
    occurredAt: (e.at ? new Date(e.at) : receivedAt).toISOString(),
  };
}

/**
 * Hikvision access controllers (ISAPI "HTTP listening"): an `EventNotificationAlert` JSON with
 * `eventType` `AccessControllerEvent` (or `heartBeat`) and the details under `AccessControllerEvent`.
 * A QR reader reports the scanned content as `cardNo`. Mapping, documented in docs/gate-hardware.md:
 * - `eventType: "heartBeat"` → heartbeat;
 * - `cardNo` present → qr_scan; direction from `attendanceStatus` (checkIn/breakIn → in,
 *   checkOut/breakOut → out), else from `cardReaderNo` (odd → in, even → out: reader 1 outside, 2 inside);
 * - `majorEventType` 5 (event) with `subEventType` 21 (0x15, door unlocked) → door_opened.
 */
const HikAccessEvent = z.object({
  majorEventType: z.number().int().optional(),
  subEventType: z.number().int().optional(),
  cardNo: z.string().optional(),
  cardReaderNo: z.number().int().optional(),
  attendanceStatus: z.string().optional(),
});
const HikAlert = z.object({
  eventType: z.string(),
  dateTime: z.string().optional(),
  AccessControllerEvent: HikAccessEvent.optional(),
});

function hikvision(body: unknown, receivedAt: Date): NormalisedEvent {
  const parsed = HikAlert.safeParse(body);
  if (!parsed.success) {
    unsupported("not a Hikvision EventNotificationAlert");
  }
  const alert = parsed.data;
  const when =
    alert.dateTime && !Number.isNaN(Date.parse(alert.dateTime)) ? new Date(alert.dateTime) : receivedAt;
  const occurredAt = when.toISOString();
  if (alert.eventType === "heartBeat") {
    return { kind: "heartbeat", direction: null, qr: null, occurredAt };
  }
  const ace = alert.AccessControllerEvent;
  if (alert.eventType !== "AccessControllerEvent" || !ace) {
    unsupported(`eventType ${alert.eventType}`);
  }
  if (ace.cardNo) {
    const status = ace.attendanceStatus ?? "";
    const direction =
      status === "checkOut" || status === "breakOut"
        ? "out"
        : status === "checkIn" || status === "breakIn"
          ? "in"
          : (ace.cardReaderNo ?? 1) % 2 === 0
            ? "out"
            : "in";
    return { kind: "qr_scan", direction, qr: ace.cardNo, occurredAt };
  }
  if (ace.majorEventType === 5 && ace.subEventType === 21) {
    return { kind: "door_opened", direction: null, qr: null, occurredAt };
  }
  unsupported(`AccessControllerEvent ${ace.majorEventType}/${ace.subEventType}`);
}

/** Each reads a device's body; `receivedAt` (the context's clock) stands in when the event has no time. */
export const adapters = { generic, hikvision } as const;
export type AdapterName = keyof typeof adapters;

/**
 * Reads the request body: JSON, or multipart (Hikvision devices post the alert as a form part named
 * `event_log` or `AccessControllerEvent`, sometimes with a picture beside it).
 */
export async function readDeviceBody(request: Request): Promise<unknown> {
  const type = request.headers.get("Content-Type") ?? "";
  try {
    if (type.includes("multipart/form-data")) {
      const form = await request.formData();
      const part = form.get("event_log") ?? form.get("AccessControllerEvent");
      if (typeof part !== "string") {
        unsupported("no event_log part");
      }
      return JSON.parse(part);
    }
    return await request.json();
  } catch (error) {
    if (error instanceof Invalid) {
      throw error;
    }
    unsupported("the body is not JSON");
  }
}
