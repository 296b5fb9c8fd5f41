import type { WebPushConfig } from "../../env";
import { guardedFetch, isTransientStatus, readSnippet, retryAfterSeconds } from "../http";
import type { FetchFn, PushProvider } from "../types";
import { base64url, decodeWebToken, fromBase64url, type WebSubscription } from "./webSubscription";

/**
 * Web Push to the installed web app, with WebCrypto only: the message encrypted for the browser as RFC
 * 8291 says (aes128gcm content coding of RFC 8188, keys from ECDH P-256 and HKDF-SHA-256), and the
 * request signed with our VAPID key (RFC 8292: an ES256 JWT for the push service's origin). The push
 * service (Google's, Mozilla's, Apple's: the subscription's endpoint) answers 201 when it has taken it.
 */
const encoder = new TextEncoder();
const RECORD_SIZE = 4096;
/** How long the push service may hold a message for a phone that is off: a day, then it is stale. */
const TTL_SECONDS = 86_400;
/** VAPID tokens live at most 24 hours (RFC 8292 §2); 12 leaves room for clock skew. */
const VAPID_LIFETIME_SECONDS = 12 * 3600;

/** ECDH with the other side's key: `public` as WebCrypto names it (workers-types spells it `$public`). */
export const ecdh = (other: CryptoKey) =>
  ({ name: "ECDH", public: other }) as unknown as SubtleCryptoDeriveKeyAlgorithm;

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

async function hkdf(salt: Uint8Array, ikm: Uint8Array, info: Uint8Array, bytes: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", concat(ikm), "HKDF", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    { name: "HKDF", hash: "SHA-256", salt: concat(salt), info: concat(info) },
    key,
    bytes * 8,
  );
  return new Uint8Array(bits);
}

/**
 * RFC 8291 §3-4: one aes128gcm record holding `plaintext`, for the subscription's keys. `salt` and the
 * sender's key pair are fresh per message unless a test gives them (RFC 8291's own example does).
 */
export async function encryptForSubscription(
  sub: Pick<WebSubscription, "p256dh" | "auth">,
  plaintext: Uint8Array,
  fixed?: { salt: Uint8Array; sender: CryptoKeyPair },
): Promise<Uint8Array> {
  const salt = fixed?.salt ?? crypto.getRandomValues(new Uint8Array(16));
  const sender =
    fixed?.sender ??
    ((await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
      "deriveBits",
    ])) as CryptoKeyPair);
  const senderPublic = new Uint8Array(
    (await crypto.subtle.exportKey("raw", sender.publicKey)) as ArrayBuffer,
  );
  const receiver = await crypto.subtle.importKey(
    "raw",
    concat(sub.p256dh),
    { name: "ECDH", namedCurve: "P-256" },
    false,
    [],
  );
  const shared = new Uint8Array(await crypto.subtle.deriveBits(ecdh(receiver), sender.privateKey, 256));
  const keyInfo = concat(encoder.encode("WebPush: info\0"), sub.p256dh, senderPublic);
  const ikm = await hkdf(sub.auth, shared, keyInfo, 32);
  const cek = await hkdf(salt, ikm, encoder.encode("Content-Encoding: aes128gcm\0"), 16);
  const nonce = await hkdf(salt, ikm, encoder.encode("Content-Encoding: nonce\0"), 12);
  const key = await crypto.subtle.importKey("raw", concat(cek), "AES-GCM", false, ["encrypt"]);
  // The last (and only) record ends with the delimiter 0x02 (RFC 8188 §2).
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: "AES-GCM", iv: concat(nonce) },
      key,
      concat(plaintext, Uint8Array.of(2)),
    ),
  );
  const header = new Uint8Array(21);
  header.set(salt, 0);
  new DataView(header.buffer).setUint32(16, RECORD_SIZE);
  header[20] = senderPublic.length;
  return concat(header, senderPublic, sealed);
}

const signingKeys = new WeakMap<WebPushConfig, Promise<CryptoKey>>();

function signingKey(config: WebPushConfig): Promise<CryptoKey> {
  let key = signingKeys.get(config);
  if (!key) {
    const publicKey = fromBase64url(config.publicKey);
    key = crypto.subtle.importKey(
      "jwk",
      {
        kty: "EC",
        crv: "P-256",
        x: base64url(publicKey.slice(1, 33)),
        y: base64url(publicKey.slice(33, 65)),
        d: config.privateKey,
      },
      { name: "ECDSA", namedCurve: "P-256" },
      false,
      ["sign"],
    );
    signingKeys.set(config, key);
  }
  return key;
}

/** RFC 8292 §2-3: `vapid t=<ES256 JWT for the endpoint's origin>, k=<our public key>`. */
export async function vapidAuthorization(
  config: WebPushConfig,
  endpoint: string,
  now: number,
): Promise<string> {
  const part = (value: unknown) => base64url(encoder.encode(JSON.stringify(value)));
  const unsigned = `${part({ typ: "JWT", alg: "ES256" })}.${part({
    aud: new URL(endpoint).origin,
    exp: Math.floor(now / 1000) + VAPID_LIFETIME_SECONDS,
    sub: config.subject,
  })}`;
  // WebCrypto's ECDSA signature is r || s, the form JWS ES256 uses.
  const signature = await crypto.subtle.sign(
    { name: "ECDSA", hash: "SHA-256" },
    await signingKey(config),
    encoder.encode(unsigned),
  );
  return `vapid t=${unsigned}.${base64url(new Uint8Array(signature))}, k=${config.publicKey}`;
}

/** The notification as the app's service worker reads it (web/src/pwa/sw.ts), kept under one record. */
function messageOf(push: { title: string; body: string; data: Record<string, string> }): Uint8Array {
  const limit = RECORD_SIZE - 200;
  const encode = (body: string) =>
    encoder.encode(JSON.stringify({ title: push.title, body, data: push.data }));
  let bytes = encode(push.body);
  // An overlong body is shortened (the screen it opens has all of it), never refused.
  for (let keep = push.body.length; bytes.length > limit && keep > 0; ) {
    keep = Math.floor(keep * 0.9);
    bytes = encode(`${push.body.slice(0, keep)}…`);
  }
  return bytes;
}

export function createWebPushProvider(
  config: WebPushConfig,
  fetchFn: FetchFn,
  now: () => number = Date.now,
): PushProvider {
  return {
    name: "webpush",
    // Push services take no idempotency key: a timed-out send is parked, not repeated (ADR 0031).
    idempotent: false,
    async send(push) {
      const sub = decodeWebToken(push.token);
      if (!sub) {
        return {
          ok: false,
          retryable: false,
          deactivateToken: true,
          error: "Web Push: not a subscription token",
        };
      }
      const body = await encryptForSubscription(sub, messageOf(push));
      const result = await guardedFetch(fetchFn, sub.endpoint, {
        method: "POST",
        headers: {
          authorization: await vapidAuthorization(config, sub.endpoint, now()),
          "content-encoding": "aes128gcm",
          "content-type": "application/octet-stream",
          ttl: String(TTL_SECONDS),
          urgency: "high",
        },
        body,
        signal: push.signal,
      });
      if ("failure" in result) {
        return result.failure;
      }
      const { response } = result;
      const text = await readSnippet(response);
      if (response.ok) {
        return {
          ok: true,
          status: response.status,
          response: text,
          providerMessageId: response.headers.get("location") ?? undefined,
        };
      }
      const status = response.status;
      // 404 and 410: the subscription has expired or been withdrawn (RFC 8030 §7.3); it never comes back.
      if (status === 404 || status === 410) {
        return {
          ok: false,
          retryable: false,
          deactivateToken: true,
          status,
          response: text,
          error: `Web Push ${status}: subscription gone`,
        };
      }
      // 401/403: our VAPID key or subject is refused, which an operator can fix; 429 and 5xx pass.
      const retryable = status === 401 || status === 403 || isTransientStatus(status);
      return {
        ok: false,
        retryable,
        status,
        response: text,
        retryAfterSeconds: retryAfterSeconds(response),
        error: `Web Push ${status}`,
      };
    },
  };
}
