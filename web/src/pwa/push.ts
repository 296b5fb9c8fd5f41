import { ApiError, api } from "../api/client";

/**
 * Notifications on this device (Web Push): the browser's subscription, made with the API's VAPID key
 * and registered with the same routes the phone apps use (POST/DELETE /api/user/push-tokens, `platform:
 * web`). The service worker shows what arrives (sw.ts).
 */
export type PushState =
  /** No service worker or Push API here (an old browser, iOS outside an installed app). */
  | "unsupported"
  /** This deployment has no Web Push key: nothing to switch on. */
  | "unavailable"
  /** The person refused notifications for this site; only the browser's settings can undo it. */
  | "blocked"
  | "off"
  | "on";

export interface SubscriptionJson {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

const supported = () =>
  typeof navigator !== "undefined" &&
  "serviceWorker" in navigator &&
  typeof window !== "undefined" &&
  "PushManager" in window &&
  "Notification" in window;

const bytesOf = (base64url: string): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(atob(base64url.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));

/**
 * The device token the API made of this subscription (documented with POST /api/user/push-tokens):
 * base64url of "<endpoint> <p256dh> <auth>", keys without padding. Needed to unregister it.
 */
export function webPushToken(sub: SubscriptionJson): string {
  const bare = (key: string) => key.replace(/=+$/, "");
  const text = `${sub.endpoint} ${bare(sub.keys.p256dh)} ${bare(sub.keys.auth)}`;
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) {
    binary += String.fromCharCode(byte);
  }
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The deployment's key (not a secret; null where Web Push is not set up). */
const publicKey = () =>
  api.get<{ publicKey: string | null }>("/api/user/push-tokens/vapid-key").then((answer) => answer.publicKey);

async function subscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.ready;
  return registration.pushManager.getSubscription();
}

export async function pushState(): Promise<PushState> {
  if (!supported()) {
    return "unsupported";
  }
  if (!(await publicKey())) {
    return "unavailable";
  }
  if (Notification.permission === "denied") {
    return "blocked";
  }
  return (await subscription()) ? "on" : "off";
}

/** Asks the person (the browser's own prompt), subscribes, and registers this device for them. */
export async function turnOn(idempotencyKey: string): Promise<PushState> {
  const key = await publicKey();
  if (!key) {
    return "unavailable";
  }
  if ((await Notification.requestPermission()) !== "granted") {
    return "blocked";
  }
  const registration = await navigator.serviceWorker.ready;
  const sub =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytesOf(key) }));
  const { endpoint, keys } = sub.toJSON() as SubscriptionJson;
  await api.post(
    "/api/user/push-tokens",
    { platform: "web", subscription: { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } } },
    { idempotencyKey },
  );
  return "on";
}

/** Unregisters this device, then drops the subscription (a push service then refuses to deliver). */
export async function turnOff(): Promise<PushState> {
  const sub = await subscription();
  if (sub) {
    try {
      await api.del(`/api/user/push-tokens/${webPushToken(sub.toJSON() as SubscriptionJson)}`);
    } catch (error) {
      // Already gone (another account took the device, or the service dropped it): nothing to undo.
      if (!(error instanceof ApiError && error.status === 404)) {
        throw error;
      }
    }
    await sub.unsubscribe();
  }
  return "off";
}
