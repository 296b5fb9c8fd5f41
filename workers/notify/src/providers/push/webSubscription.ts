/**
 * A browser's push subscription as a device token. The API registers a web device with the token
 * base64url(`<endpoint> <p256dh> <auth>`) (src/modules/identity/devices.ts writes it; keys base64url
 * without padding), so a web device is one string like an FCM token: the same devices table, the same
 * DELETE /v1/devices/:token, and nothing to store beside it.
 */
export interface WebSubscription {
  endpoint: string;
  /** The browser's P-256 public key, uncompressed (65 bytes). */
  p256dh: Uint8Array;
  /** The browser's authentication secret (16 bytes). */
  auth: Uint8Array;
}

export function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) {
    binary += String.fromCharCode(byte);
  }
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function fromBase64url(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, ""));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** The subscription a web device's token names, or null when the token is not one. */
export function decodeWebToken(token: string): WebSubscription | null {
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(token)) {
      return null;
    }
    const [endpoint = "", p256dh = "", auth = "", ...rest] = new TextDecoder()
      .decode(fromBase64url(token))
      .split(" ");
    const url = new URL(endpoint);
    const key = fromBase64url(p256dh);
    const secret = fromBase64url(auth);
    if (
      rest.length > 0 ||
      url.protocol !== "https:" ||
      key.length !== 65 ||
      key[0] !== 4 ||
      secret.length !== 16
    ) {
      return null;
    }
    return { endpoint, p256dh: key, auth: secret };
  } catch {
    return null;
  }
}

export function encodeWebToken(sub: { endpoint: string; p256dh: string; auth: string }): string {
  return base64url(new TextEncoder().encode(`${sub.endpoint} ${sub.p256dh} ${sub.auth}`));
}
