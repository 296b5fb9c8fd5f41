import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { devices, type Platform } from "../db/schema";
import { notFound } from "../errors";
import type { ServiceContext } from "./context";

export type DeviceRow = typeof devices.$inferSelect;

export interface RegisterDeviceInput {
  userId: string;
  tenant: string;
  platform: Platform;
  token: string;
}

// A token belongs to one app install: registering it again (after a re-login, maybe as another user)
// moves it and reactivates it rather than creating a second row.
export async function registerDevice(
  ctx: ServiceContext,
  input: RegisterDeviceInput,
): Promise<{ device: DeviceRow; created: boolean }> {
  const now = ctx.now().toISOString();
  const device = await ctx.db
    .insert(devices)
    .values({ ...input, active: true, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: devices.token,
      set: {
        userId: input.userId,
        tenant: input.tenant,
        platform: input.platform,
        active: true,
        deactivatedAt: null,
        deactivationReason: null,
        updatedAt: now,
      },
    })
    .returning()
    .get();
  return { device, created: device.createdAt === now && device.updatedAt === now };
}

// With `userId`, only that user's registration is removed: a user cannot silence another's phone.
export async function unregisterDevice(ctx: ServiceContext, token: string, userId?: string): Promise<void> {
  const deleted = await ctx.db
    .delete(devices)
    .where(userId ? and(eq(devices.token, token), eq(devices.userId, userId)) : eq(devices.token, token))
    .returning({ token: devices.token })
    .all();
  if (deleted.length === 0) {
    throw notFound("device_not_found", "No device is registered with this token.");
  }
}

export async function deactivateDevice(db: Db, token: string, reason: string, at: Date): Promise<void> {
  await db
    .update(devices)
    .set({
      active: false,
      deactivatedAt: at.toISOString(),
      deactivationReason: reason,
      updatedAt: at.toISOString(),
    })
    .where(sql`${devices.token} = ${token} AND ${devices.active} = 1`);
}
