import type { PlatformCtx, TenantCtx } from "../../core/context";
import { NotFound, Unavailable } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { NotifyUnavailable, notifyFor } from "../../platform/notify";
import type { NotificationPreferences, PushTokenInput, WebPushSubscription } from "./schemas";

/**
 * Device push tokens and notification preferences live in the notification service (it sends to
 * them); these verbs are the resident's way to them. The service being down is 503, never a silent
 * success: the app retries a registration it believes failed.
 */
export async function viaNotify<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof NotifyUnavailable) {
      throw new Unavailable(
        "notification_unavailable",
        "The notification service is unavailable; try again.",
      );
    }
    throw error;
  }
}

/**
 * A browser's subscription as the notification service's device token: base64url of
 * `<endpoint> <p256dh> <auth>`, keys without padding (workers/notify providers/push/webSubscription.ts
 * reads it). One string, like an FCM token: stored, moved and unregistered the same way.
 */
export function webPushToken(sub: WebPushSubscription): string {
  const bare = (key: string) => key.replace(/=+$/, "");
  const text = `${sub.endpoint} ${bare(sub.keys.p256dh)} ${bare(sub.keys.auth)}`;
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) {
    binary += String.fromCharCode(byte);
  }
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * Registers this app install for the caller in the current tenant. A token registered before (by
 * another account on the same phone, or in another tenant) moves to the caller.
 */
export async function registerPushToken({ ctx, input }: { ctx: TenantCtx; input: PushTokenInput }) {
  const user = requireUser(ctx);
  const device = await viaNotify(() =>
    notifyFor(ctx.env).registerDevice({
      userId: user.userId,
      tenant: ctx.tenant.slug,
      platform: input.platform,
      token: input.platform === "web" ? webPushToken(input.subscription) : input.token,
    }),
  );
  return { token: device.token, platform: device.platform, registeredAt: device.updatedAt };
}

/** Forgets one of the caller's tokens; someone else's token (or an unknown one) is 404. */
export async function unregisterPushToken({ ctx, token }: { ctx: TenantCtx; token: string }) {
  const user = requireUser(ctx);
  const removed = await viaNotify(() => notifyFor(ctx.env).unregisterDeviceOf(user.userId, token));
  if (!removed) {
    throw new NotFound("Push token", "push_token_not_found");
  }
}

export async function notificationPreferences({ ctx }: { ctx: PlatformCtx }) {
  const user = requireUser(ctx);
  return viaNotify(() => notifyFor(ctx.env).preferences(user.userId));
}

export async function setNotificationPreferences({
  ctx,
  input,
}: {
  ctx: PlatformCtx;
  input: NotificationPreferences;
}) {
  const user = requireUser(ctx);
  return viaNotify(() => notifyFor(ctx.env).setPreferences(user.userId, input));
}
