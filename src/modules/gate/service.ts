import { and, desc, eq, isNull, type SQL } from "drizzle-orm";
import { platformAudit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { afterCursor, keysetPage, type ListQuery } from "../../core/db/paging";
import { gateDevices } from "../../core/db/platform-schema";
import { DomainError, NotFound, Unauthorized } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { log } from "../../core/http/log";
import { newId, randomToken, sha256Hex } from "../../core/ids";
import { nowIso } from "../../core/time";
import { passGate } from "../visitor/service";
import { adapters, type NormalisedEvent } from "./adapters";
import type { CreateDeviceInput } from "./schemas";
import { gateEvents } from "./tables";

type DeviceRow = typeof gateDevices.$inferSelect;
const KEY_PREFIX = "wgd_";

export function presentDevice(row: DeviceRow) {
  return {
    id: row.id,
    name: row.name,
    adapter: row.adapter,
    keyPrefix: row.keyPrefix,
    active: row.active,
    lastSeenAt: row.lastSeenAt,
    createdAt: row.createdAt,
  };
}

/** Fetch-or-404 within the caller's tenant; deleted devices are gone. */
async function loadDevice(ctx: TenantCtx, id: string): Promise<DeviceRow> {
  const row = await ctx.platform
    .select()
    .from(gateDevices)
    .where(
      and(eq(gateDevices.id, id), eq(gateDevices.tenantId, ctx.tenant.id), isNull(gateDevices.deletedAt)),
    )
    .get();
  if (!row) {
    throw new NotFound("Gate device");
  }
  return row;
}

export async function listDevices({ ctx }: { ctx: TenantCtx }) {
  const rows = await ctx.platform
    .select()
    .from(gateDevices)
    .where(and(eq(gateDevices.tenantId, ctx.tenant.id), isNull(gateDevices.deletedAt)))
    .orderBy(desc(gateDevices.id));
  return { items: rows.map(presentDevice), nextCursor: null };
}

/** Devices are control-plane rows (the guard finds a key's tenant there), so their audit is too. */
export async function createDevice({ ctx, input }: { ctx: TenantCtx; input: CreateDeviceInput }) {
  const apiKey = `${KEY_PREFIX}${randomToken(32)}`;
  const id = newId();
  const db = ctx.platform;
  const [, , created] = await db.batch([
    db.insert(gateDevices).values({
      id,
      tenantId: ctx.tenant.id,
      name: input.name,
      adapter: input.adapter,
      keyHash: await sha256Hex(apiKey),
      keyPrefix: apiKey.slice(0, 12),
      createdBy: requireUser(ctx).userId,
      updatedAt: nowIso(),
    }),
    platformAudit(ctx, { action: "gate_device.create", targetType: "gate_device", targetId: id }),
    db.select().from(gateDevices).where(eq(gateDevices.id, id)),
  ]);
  const row = created[0];
  if (!row) {
    throw new Error("device vanished after creation");
  }
  return { device: presentDevice(row), apiKey };
}

async function changeDevice(ctx: TenantCtx, id: string, change: Partial<DeviceRow>, action: string) {
  await loadDevice(ctx, id);
  const db = ctx.platform;
  const [, , updated] = await db.batch([
    db
      .update(gateDevices)
      .set({ ...change, updatedAt: nowIso() })
      .where(and(eq(gateDevices.id, id), eq(gateDevices.tenantId, ctx.tenant.id))),
    platformAudit(ctx, { action, targetType: "gate_device", targetId: id }),
    db.select().from(gateDevices).where(eq(gateDevices.id, id)),
  ]);
  const row = updated[0];
  if (!row) {
    throw new NotFound("Gate device");
  }
  return presentDevice(row);
}

export const activateDevice = ({ ctx, id }: { ctx: TenantCtx; id: string }) =>
  changeDevice(ctx, id, { active: true }, "gate_device.activate");

/** The key stays but is refused (403 device_inactive) until the device is activated again. */
export const deactivateDevice = ({ ctx, id }: { ctx: TenantCtx; id: string }) =>
  changeDevice(ctx, id, { active: false }, "gate_device.deactivate");

/** Soft delete: the key stops working and the device leaves the list; its event log stays. */
export async function deleteDevice({ ctx, id }: { ctx: TenantCtx; id: string }) {
  await changeDevice(ctx, id, { active: false, deletedAt: nowIso() }, "gate_device.delete");
}

export async function listDeviceEvents({ ctx, id, input }: { ctx: TenantCtx; id: string; input: ListQuery }) {
  await loadDevice(ctx, id);
  const filters: SQL[] = [eq(gateEvents.deviceId, id), ...afterCursor(gateEvents.id, input.cursor, "desc")];
  const rows = await ctx.db
    .select()
    .from(gateEvents)
    .where(and(...filters))
    .orderBy(desc(gateEvents.id))
    .limit(input.limit + 1);
  const page = keysetPage(rows, input.limit);
  return { items: page.items.map(({ deviceId: _d, ...event }) => event), nextCursor: page.nextCursor };
}

async function act(ctx: TenantCtx, event: NormalisedEvent) {
  if (event.kind !== "qr_scan" || !event.qr || !event.direction) {
    return { action: "none" as const, reason: "recorded", visitorId: null };
  }
  try {
    const result = await passGate({ ctx, input: { qr: event.qr, direction: event.direction } });
    return {
      action: "open" as const,
      reason: event.direction === "in" ? "checked_in" : "checked_out",
      visitorId: result.visitorId,
    };
  } catch (error) {
    // A refused pass is an answer for the device (keep the door shut), not an error of the webhook.
    if (error instanceof DomainError) {
      return { action: "deny" as const, reason: error.code, visitorId: null };
    }
    throw error;
  }
}

/**
 * One event from a gate device. The route guard has already proved the key (device scope: unknown or
 * deleted → 401, deactivated → 403, tenant suspended or `tamu` off → 403); `input` is the raw body,
 * read by the device's adapter.
 */
export async function handleWebhook({ ctx, input }: { ctx: TenantCtx; input: unknown }) {
  if (ctx.actor.kind !== "device") {
    throw new Unauthorized("invalid_device_key", "This route is for gate devices.");
  }
  const deviceId = ctx.actor.deviceId;
  const device = await ctx.platform
    .select({ adapter: gateDevices.adapter })
    .from(gateDevices)
    .where(and(eq(gateDevices.id, deviceId), eq(gateDevices.tenantId, ctx.tenant.id)))
    .get();
  if (!device) {
    throw new Unauthorized("invalid_device_key", "This device key is not valid.");
  }
  const event = adapters[device.adapter](input);
  const outcome = await act(ctx, event);
  const eventId = newId();
  // Two databases, so two writes and no batch (D1 has no transaction across databases). The event is
  // the record and lives in the tenant's database beside the visitor it concerns; last-seen is a
  // liveness hint on the control-plane device row, not an audit record: if its write fails the device
  // still gets its answer (a 500 would make it retry a check-in that already happened).
  await Promise.all([
    ctx.db.insert(gateEvents).values({
      id: eventId,
      deviceId,
      kind: event.kind,
      direction: event.direction,
      visitorId: outcome.visitorId,
      action: outcome.action,
      reason: outcome.reason,
      occurredAt: event.occurredAt,
    }),
    ctx.platform
      .update(gateDevices)
      .set({ lastSeenAt: nowIso() })
      .where(eq(gateDevices.id, deviceId))
      .catch((error: unknown) => {
        log("warn", "gate_last_seen_failed", {
          requestId: ctx.requestId,
          device: deviceId,
          error: String(error),
        });
      }),
  ]);
  log("info", "gate_event", {
    requestId: ctx.requestId,
    device: deviceId,
    kind: event.kind,
    action: outcome.action,
    reason: outcome.reason,
  });
  return { action: outcome.action, reason: outcome.reason, eventId };
}
