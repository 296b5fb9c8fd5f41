import { and, desc, eq, isNull, lt, type SQL } from "drizzle-orm";
import { auditInsert } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { platformDb } from "../../core/db/platform";
import { tenants } from "../../core/db/platform-schema";
import type { Bindings } from "../../core/env";
import { DomainError, Forbidden, NotFound, Unauthorized } from "../../core/errors";
import { log } from "../../core/http/log";
import { newId, randomToken, sha256Hex } from "../../core/ids";
import { tenantDb, toTenantInfo } from "../../core/tenancy";
import { passGate } from "../visitor/service";
import { gateEvents } from "../visitor/tables";
import { adapters, type NormalisedEvent } from "./adapters";
import { gateDevices } from "./platform-tables";
import type { CreateDeviceInput } from "./schemas";

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

function userId(ctx: TenantCtx): string {
  if (ctx.actor.kind !== "user") {
    throw new Error("device management needs a signed-in user");
  }
  return ctx.actor.userId;
}

/** Fetch-or-404 within the caller's tenant; deleted devices are gone. */
async function loadDevice(ctx: TenantCtx, id: string): Promise<DeviceRow> {
  const row = await platformDb(ctx.env)
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
  const rows = await platformDb(ctx.env)
    .select()
    .from(gateDevices)
    .where(and(eq(gateDevices.tenantId, ctx.tenant.id), isNull(gateDevices.deletedAt)))
    .orderBy(desc(gateDevices.id));
  return { items: rows.map(presentDevice), nextCursor: null };
}

export async function createDevice({ ctx, input }: { ctx: TenantCtx; input: CreateDeviceInput }) {
  const apiKey = `${KEY_PREFIX}${randomToken(32)}`;
  const id = newId();
  const db = platformDb(ctx.env);
  const [, , created] = await db.batch([
    db.insert(gateDevices).values({
      id,
      tenantId: ctx.tenant.id,
      name: input.name,
      adapter: input.adapter,
      keyHash: await sha256Hex(apiKey),
      keyPrefix: apiKey.slice(0, 12),
      createdBy: userId(ctx),
      updatedAt: new Date().toISOString(),
    }),
    auditInsert(db, ctx, {
      tenantId: ctx.tenant.id,
      action: "gate_device.create",
      targetType: "gate_device",
      targetId: id,
    }),
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
  const db = platformDb(ctx.env);
  const [, , updated] = await db.batch([
    db
      .update(gateDevices)
      .set({ ...change, updatedAt: new Date().toISOString() })
      .where(and(eq(gateDevices.id, id), eq(gateDevices.tenantId, ctx.tenant.id))),
    auditInsert(db, ctx, { tenantId: ctx.tenant.id, action, targetType: "gate_device", targetId: id }),
    db.select().from(gateDevices).where(eq(gateDevices.id, id)),
  ]);
  const row = updated[0];
  if (!row) {
    throw new NotFound("Gate device");
  }
  return presentDevice(row);
}

export const setDeviceActive = ({ ctx, id, active }: { ctx: TenantCtx; id: string; active: boolean }) =>
  changeDevice(ctx, id, { active }, active ? "gate_device.activate" : "gate_device.deactivate");

/** Soft delete: the key stops working and the device leaves the list; its event log stays. */
export async function deleteDevice({ ctx, id }: { ctx: TenantCtx; id: string }) {
  await changeDevice(ctx, id, { active: false, deletedAt: new Date().toISOString() }, "gate_device.delete");
}

export async function listDeviceEvents({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: { limit: number; cursor?: string };
}) {
  await loadDevice(ctx, id);
  const filters: SQL[] = [eq(gateEvents.deviceId, id)];
  if (input.cursor) {
    filters.push(lt(gateEvents.id, input.cursor));
  }
  const rows = await ctx.db
    .select()
    .from(gateEvents)
    .where(and(...filters))
    .orderBy(desc(gateEvents.id))
    .limit(input.limit + 1);
  const items = rows.slice(0, input.limit);
  return {
    items: items.map(({ deviceId: _d, ...event }) => event),
    nextCursor: rows.length > input.limit ? (items.at(-1)?.id ?? null) : null,
  };
}

/**
 * Finds the device behind a webhook key. Unknown and deleted keys are 401, a deactivated device 403;
 * the device's tenant must be active with the guest book switched on.
 */
async function authenticateDevice(env: Bindings, authorization: string | undefined) {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? "");
  if (!match?.[1]) {
    throw new Unauthorized("missing_device_key", "The device API key goes in Authorization: Bearer <key>.");
  }
  const found = await platformDb(env)
    .select({ device: gateDevices, tenant: tenants })
    .from(gateDevices)
    .innerJoin(tenants, eq(tenants.id, gateDevices.tenantId))
    .where(eq(gateDevices.keyHash, await sha256Hex(match[1])))
    .get();
  if (!found || found.device.deletedAt) {
    throw new Unauthorized("invalid_device_key", "This device key is not valid.");
  }
  if (!found.device.active) {
    throw new Forbidden("device_inactive", "This device has been deactivated.");
  }
  const tenant = toTenantInfo(found.tenant);
  if (tenant.status === "suspended") {
    throw new Forbidden("tenant_suspended", "This community's account is suspended.");
  }
  if (!tenant.flags.tamu) {
    throw new Forbidden("feature_disabled", "The tamu module is switched off for this community.");
  }
  return { device: found.device, tenant };
}

async function act(ctx: TenantCtx, event: NormalisedEvent) {
  if (event.kind !== "qr_scan" || !event.qr || !event.direction) {
    return { action: "none" as const, reason: "recorded", visitorId: null };
  }
  try {
    const result = await passGate({ ctx, qr: event.qr, direction: event.direction });
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

export async function handleWebhook(opts: {
  env: Bindings;
  authorization: string | undefined;
  body: () => Promise<unknown>;
  requestId: string;
  ip: string | null;
}) {
  const { device, tenant } = await authenticateDevice(opts.env, opts.authorization);
  const event = adapters[device.adapter](await opts.body());
  const ctx: TenantCtx = {
    tenant,
    actor: { kind: "device", deviceId: device.id, tenantSlug: tenant.slug },
    db: tenantDb(opts.env, tenant.slot),
    env: opts.env,
    requestId: opts.requestId,
    ip: opts.ip,
  };
  const outcome = await act(ctx, event);
  const eventId = newId();
  const now = new Date().toISOString();
  await Promise.all([
    ctx.db.insert(gateEvents).values({
      id: eventId,
      deviceId: device.id,
      kind: event.kind,
      direction: event.direction,
      visitorId: outcome.visitorId,
      action: outcome.action,
      reason: outcome.reason,
      occurredAt: event.occurredAt,
    }),
    platformDb(opts.env).update(gateDevices).set({ lastSeenAt: now }).where(eq(gateDevices.id, device.id)),
  ]);
  log("info", "gate_event", {
    requestId: opts.requestId,
    device: device.id,
    kind: event.kind,
    action: outcome.action,
    reason: outcome.reason,
  });
  return { action: outcome.action, reason: outcome.reason, eventId };
}
