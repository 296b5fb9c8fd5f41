import { and, desc, eq, isNull, type SQL } from "drizzle-orm";
import { platformAudit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { afterCursor, keysetPage, type ListQuery } from "../../core/db/paging";
import { gateDevices } from "../../core/db/platform-schema";
import { NotFound } from "../../core/errors";
import { forgetDevice, requireUser } from "../../core/http/access";
import { newId, randomToken, sha256Hex } from "../../core/ids";
import { nowIso } from "../../core/time";
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
      updatedAt: nowIso(ctx),
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
      .set({ ...change, updatedAt: nowIso(ctx) })
      .where(and(eq(gateDevices.id, id), eq(gateDevices.tenantId, ctx.tenant.id))),
    platformAudit(ctx, { action, targetType: "gate_device", targetId: id }),
    db.select().from(gateDevices).where(eq(gateDevices.id, id)),
  ]);
  // This isolate's guard stops honouring the old state at once; other isolates within their 30 s TTL.
  forgetDevice(id);
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
  await changeDevice(ctx, id, { active: false, deletedAt: nowIso(ctx) }, "gate_device.delete");
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
