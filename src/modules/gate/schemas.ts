import { z } from "zod";
import { ListQuery } from "../../core/db/paging";
import { Line } from "../../core/schemas";

export const ADAPTERS = ["generic", "hikvision"] as const;

export const CreateDeviceInput = z.object({
  name: Line(80, 2),
  adapter: z.enum(ADAPTERS),
});
export type CreateDeviceInput = z.infer<typeof CreateDeviceInput>;

export const Device = z
  .object({
    id: z.string(),
    name: z.string(),
    adapter: z.enum(ADAPTERS),
    keyPrefix: z.string(),
    active: z.boolean(),
    lastSeenAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("GateDevice");

export const CreatedDevice = z
  .object({ device: Device, apiKey: z.string().describe("Shown once; only its hash is stored.") })
  .openapi("GateDeviceCreated");

export const GateEvent = z
  .object({
    id: z.string(),
    kind: z.enum(["qr_scan", "door_opened", "heartbeat"]),
    direction: z.enum(["in", "out"]).nullable(),
    visitorId: z.string().nullable(),
    action: z.enum(["open", "deny", "none"]),
    reason: z.string(),
    occurredAt: z.string(),
    createdAt: z.string(),
  })
  .openapi("GateEvent");

export const EventListQuery = ListQuery;

/** The generic adapter's body: what a small gate controller or a guard's phone app sends. */
export const GenericEvent = z.object({
  event: z.enum(["qr_scan", "door_opened", "heartbeat"]),
  qr: z.string().min(1).max(2000).optional(),
  direction: z.enum(["in", "out"]).optional(),
  at: z.iso.datetime({ offset: true }).optional(),
});

export const WebhookAnswer = z
  .object({
    action: z.enum(["open", "deny", "none"]),
    reason: z.string(),
    eventId: z.string(),
  })
  .openapi("GateWebhookAnswer");
