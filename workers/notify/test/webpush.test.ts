import { importJWK, jwtVerify } from "jose";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ecdh, encryptForSubscription } from "../src/providers/push/webpush";
import { base64url, encodeWebToken, fromBase64url } from "../src/providers/push/webSubscription";
import { fakeFetch, json } from "./helpers/fakeFetch";
import { callJson, deliver, messageRow } from "./helpers/worker";

type Accepted = { messageIds: string[] };

let net: ReturnType<typeof fakeFetch> | undefined;
afterEach(() => net?.restore());

const PUSH_HOST = "updates.push.example.test";
const data = { screen: "pengumuman", id: "01JD0000000000000000000001" };

/** Our VAPID key pair, as env vars hold it. */
let vapid: { VAPID_PUBLIC_KEY: string; VAPID_PRIVATE_KEY: string; VAPID_SUBJECT: string };
let vapidJwk: JsonWebKey;
beforeAll(async () => {
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
    "sign",
    "verify",
  ])) as CryptoKeyPair;
  const raw = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
  vapidJwk = (await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey;
  vapid = {
    VAPID_PUBLIC_KEY: base64url(raw),
    VAPID_PRIVATE_KEY: vapidJwk.d ?? "",
    VAPID_SUBJECT: "mailto:operator@warga.test",
  };
});

/** A browser's subscription: its ECDH key pair and auth secret, and the token the API registers for it. */
async function browser(path = crypto.randomUUID()) {
  const keys = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
    "deriveBits",
  ])) as CryptoKeyPair;
  const p256dh = new Uint8Array((await crypto.subtle.exportKey("raw", keys.publicKey)) as ArrayBuffer);
  const auth = crypto.getRandomValues(new Uint8Array(16));
  const endpoint = `https://${PUSH_HOST}/wpush/v2/${path}`;
  const token = encodeWebToken({ endpoint, p256dh: base64url(p256dh), auth: base64url(auth) });
  return { keys, p256dh, auth, endpoint, token };
}

const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

async function hkdf(salt: Uint8Array, ikm: Uint8Array, info: string | Uint8Array, bytes: number) {
  const key = await crypto.subtle.importKey("raw", ikm, "HKDF", false, ["deriveBits"]);
  const infoBytes = typeof info === "string" ? new TextEncoder().encode(info) : info;
  return new Uint8Array(
    await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt, info: infoBytes }, key, bytes * 8),
  );
}

/** What the browser does with a push (RFC 8291 §3-4, RFC 8188), written apart from the provider's code. */
async function decrypt(
  body: Uint8Array,
  receiver: { keys: CryptoKeyPair; p256dh: Uint8Array; auth: Uint8Array },
) {
  const salt = body.slice(0, 16);
  const recordSize = new DataView(body.buffer, body.byteOffset).getUint32(16);
  const idLength = body[20] ?? 0;
  const senderPublic = body.slice(21, 21 + idLength);
  const sender = await crypto.subtle.importKey(
    "raw",
    senderPublic,
    { name: "ECDH", namedCurve: "P-256" },
    false,
    [],
  );
  const shared = new Uint8Array(await crypto.subtle.deriveBits(ecdh(sender), receiver.keys.privateKey, 256));
  const info = concat(new TextEncoder().encode("WebPush: info\0"), receiver.p256dh, senderPublic);
  const ikm = await hkdf(receiver.auth, shared, info, 32);
  const cek = await hkdf(salt, ikm, "Content-Encoding: aes128gcm\0", 16);
  const nonce = await hkdf(salt, ikm, "Content-Encoding: nonce\0", 12);
  const key = await crypto.subtle.importKey("raw", cek, "AES-GCM", false, ["decrypt"]);
  const padded = new Uint8Array(
    await crypto.subtle.decrypt({ name: "AES-GCM", iv: nonce }, key, body.slice(21 + idLength)),
  );
  expect(padded.at(-1), "the last record's delimiter").toBe(2);
  return { recordSize, senderPublic, text: new TextDecoder().decode(padded.slice(0, -1)) };
}

/** The bytes a push service received. */
async function received(call: { request: Request } | undefined): Promise<Uint8Array> {
  if (!call) {
    throw new Error("nothing was sent to the push service");
  }
  return new Uint8Array(await call.request.arrayBuffer());
}

async function register(token: string, userId: string) {
  return callJson<Record<string, unknown>>("POST", "/v1/devices", {
    body: { userId, tenant: "rt05", platform: "web", token },
  });
}

async function send(userId: string, env: Record<string, string>, body = "Kerja bakti Minggu pagi") {
  const res = await callJson<Accepted>("POST", "/v1/push/send", {
    body: { userIds: [userId], title: "Pengumuman", body, data },
    env,
  });
  expect(res.status).toBe(202);
  return res.body.messageIds;
}

describe("Web Push (RFC 8291 encryption, RFC 8292 VAPID)", () => {
  it("matches RFC 8291's own worked example byte for byte", async () => {
    // RFC 8291 Appendix A: the sender's key pair and salt fixed, the message known.
    const jwk = (d: string, publicKey: string) => {
      const raw = fromBase64url(publicKey);
      return {
        kty: "EC",
        crv: "P-256",
        d,
        x: base64url(raw.slice(1, 33)),
        y: base64url(raw.slice(33, 65)),
      };
    };
    const asPublic =
      "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8";
    const privateKey = await crypto.subtle.importKey(
      "jwk",
      jwk("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw", asPublic),
      { name: "ECDH", namedCurve: "P-256" },
      true,
      ["deriveBits"],
    );
    const publicKey = await crypto.subtle.importKey(
      "raw",
      fromBase64url(asPublic),
      { name: "ECDH", namedCurve: "P-256" },
      true,
      [],
    );
    const body = await encryptForSubscription(
      {
        p256dh: fromBase64url(
          "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
        ),
        auth: fromBase64url("BTBZMqHH6r4Tts7J_aSIgg"),
      },
      new TextEncoder().encode("When I grow up, I want to be a watermelon"),
      { salt: fromBase64url("DGv6ra1nlYgDCS1FRnbzlw"), sender: { privateKey, publicKey } },
    );
    expect(base64url(body)).toBe(
      "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN",
    );
  });

  it("sends the notification encrypted for the browser, which decrypts it, signed with a VAPID JWT that verifies", async () => {
    const device = await browser();
    expect((await register(device.token, "u-web")).status).toBe(201);
    net = fakeFetch({
      [PUSH_HOST]: () =>
        new Response(null, { status: 201, headers: { location: `https://${PUSH_HOST}/m/1` } }),
    });
    const ids = await send("u-web", vapid);
    const result = await deliver(ids, { env: vapid });
    expect(result.explicitAcks).toHaveLength(1);

    const [call] = net.to(PUSH_HOST);
    expect(call?.url).toBe(device.endpoint);
    expect(call?.method).toBe("POST");
    expect(call?.headers.get("content-encoding")).toBe("aes128gcm");
    expect(call?.headers.get("content-type")).toBe("application/octet-stream");
    expect(Number(call?.headers.get("ttl"))).toBeGreaterThan(0);
    const opened = await decrypt(await received(call), device);
    expect(opened.recordSize).toBe(4096);
    expect(JSON.parse(opened.text)).toEqual({ title: "Pengumuman", body: "Kerja bakti Minggu pagi", data });

    const [, jwt = "", k = ""] =
      /^vapid t=([^,]+), k=(.+)$/.exec(call?.headers.get("authorization") ?? "") ?? [];
    expect(k).toBe(vapid.VAPID_PUBLIC_KEY);
    const { d: _private, key_ops: _ops, ...publicJwk } = vapidJwk;
    const { payload, protectedHeader } = await jwtVerify(jwt, await importJWK(publicJwk, "ES256"), {
      audience: `https://${PUSH_HOST}`,
    });
    expect(protectedHeader).toEqual({ typ: "JWT", alg: "ES256" });
    expect(payload.sub).toBe("mailto:operator@warga.test");
    const lifetime = (payload.exp ?? 0) - Date.now() / 1000;
    expect(lifetime).toBeGreaterThan(3600);
    expect(lifetime).toBeLessThanOrEqual(24 * 3600);
    expect(await messageRow(ids[0] ?? "")).toMatchObject({
      status: "sent",
      provider_message_id: `https://${PUSH_HOST}/m/1`,
    });
  });

  it("uses a fresh key and salt for every message", async () => {
    const device = await browser();
    const first = await encryptForSubscription(device, new TextEncoder().encode("a"));
    const second = await encryptForSubscription(device, new TextEncoder().encode("a"));
    expect(base64url(first.slice(0, 86))).not.toBe(base64url(second.slice(0, 86)));
  });

  it("shortens an overlong body to fit one record rather than failing", async () => {
    const device = await browser();
    await register(device.token, "u-long");
    net = fakeFetch({ [PUSH_HOST]: () => new Response(null, { status: 201 }) });
    // Within the 2000 characters the API takes, but two bytes each: more than one record holds.
    const ids = await send("u-long", vapid, "é".repeat(1990));
    await deliver(ids, { env: vapid });
    const [call] = net.to(PUSH_HOST);
    const opened = await decrypt(await received(call), device);
    const message = JSON.parse(opened.text) as { body: string };
    expect(message.body.endsWith("…")).toBe(true);
    expect(new TextEncoder().encode(opened.text).length).toBeLessThan(4096);
  });

  it("removes the subscription when the push service answers 410 Gone, as FCM's UNREGISTERED does", async () => {
    const device = await browser();
    await register(device.token, "u-gone-web");
    net = fakeFetch({
      [PUSH_HOST]: () => new Response("push subscription has unsubscribed or expired.", { status: 410 }),
    });
    const ids = await send("u-gone-web", vapid);
    const result = await deliver(ids, { env: vapid });
    expect(result.explicitAcks).toHaveLength(1);
    expect(await messageRow(ids[0] ?? "")).toMatchObject({ status: "failed" });
    // Nothing more is queued for it, until the browser subscribes again.
    const again = await callJson<Accepted>("POST", "/v1/push/send", {
      body: { userIds: ["u-gone-web"], title: "a", body: "b", data },
      env: vapid,
    });
    expect(again.body.messageIds).toEqual([]);
  });

  it("retries a throttled or failing push service, and a refused VAPID key (an operator can fix it)", async () => {
    const device = await browser();
    await register(device.token, "u-retry-web");
    for (const status of [429, 503, 403]) {
      net?.restore();
      net = fakeFetch({ [PUSH_HOST]: () => json({ reason: "x" }, status, { "retry-after": "30" }) });
      const ids = await send("u-retry-web", vapid, `status ${status}`);
      const result = await deliver(ids, { env: vapid });
      expect(result.retryMessages, String(status)).toHaveLength(1);
    }
  });

  it("sends web devices by Web Push and leaves FCM devices waiting when only Web Push is configured", async () => {
    const device = await browser();
    await register(device.token, "u-both");
    await callJson("POST", "/v1/devices", {
      body: { userId: "u-both", tenant: "rt05", platform: "android", token: "fcm-token-both" },
    });
    net = fakeFetch({ [PUSH_HOST]: () => new Response(null, { status: 201 }) });
    const ids = await send("u-both", vapid);
    expect(ids).toHaveLength(2);
    const result = await deliver(ids, { env: vapid });
    expect(result.explicitAcks).toHaveLength(1);
    expect(result.retryMessages).toHaveLength(1);
    expect(net.calls.map((c) => new URL(c.url).host)).toEqual([PUSH_HOST]);
  });

  it("registers only tokens that are web subscriptions for the web platform", async () => {
    const plain = await register("not-a-subscription", "u-bad");
    expect(plain.status).toBe(400);
    const http = encodeWebToken({
      endpoint: `http://${PUSH_HOST}/x`,
      p256dh: base64url((await browser()).p256dh),
      auth: base64url(new Uint8Array(16)),
    });
    expect((await register(http, "u-bad")).status).toBe(400);
    const shortKey = encodeWebToken({ endpoint: `https://${PUSH_HOST}/x`, p256dh: "AAAA", auth: "AAAA" });
    expect((await register(shortKey, "u-bad")).status).toBe(400);
  });
});

describe("Web Push configuration", () => {
  it("is off without a private key, and refuses half or malformed keys and an unreachable subject", async () => {
    const { loadConfig, ConfigError } = await import("../src/env");
    const { testEnv } = await import("./helpers/worker");
    expect(loadConfig(testEnv()).webPush).toBeNull();
    expect(loadConfig(testEnv(vapid)).webPush).toEqual({
      publicKey: vapid.VAPID_PUBLIC_KEY,
      privateKey: vapid.VAPID_PRIVATE_KEY,
      subject: "mailto:operator@warga.test",
    });
    for (const broken of [
      { ...vapid, VAPID_PUBLIC_KEY: "" },
      { ...vapid, VAPID_PRIVATE_KEY: "short" },
      { ...vapid, VAPID_SUBJECT: "operator" },
    ]) {
      expect(() => loadConfig(testEnv(broken))).toThrow(ConfigError);
    }
  });
});
