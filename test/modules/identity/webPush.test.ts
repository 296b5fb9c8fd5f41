import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { webPushToken } from "../../../src/modules/identity/devices";
import {
  call,
  callJson,
  createTenant,
  expectProblem,
  type Member,
  type TestTenant,
} from "../../helpers/harness";

/** The web app's devices (issue 43): its Web Push key, and its subscription registered as a push token. */
let tenant: TestTenant;
let other: TestTenant;
let warga: Member;
let stranger: Member;
beforeAll(async () => {
  tenant = await createTenant();
  other = await createTenant();
  warga = await tenant.member("warga");
  stranger = await other.member("warga");
});

const P256DH = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
const AUTH = "BTBZMqHH6r4Tts7J_aSIgg";
const subscription = (endpoint = `https://fcm.googleapis.com/fcm/send/${crypto.randomUUID()}`) => ({
  endpoint,
  expirationTime: null,
  keys: { p256dh: P256DH, auth: AUTH },
});

async function deviceRow(token: string) {
  return env.NOTIFY_DB_TEST.prepare("SELECT user_id, tenant, platform FROM devices WHERE token = ?")
    .bind(token)
    .first<{ user_id: string; tenant: string; platform: string }>();
}

describe("GET /api/user/push-tokens/vapid-key", () => {
  it("answers the public key the browser subscribes with, to anyone signed in", async () => {
    const res = await callJson("/api/user/push-tokens/vapid-key", { token: warga.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ publicKey: expect.stringMatching(/^B[A-Za-z0-9_-]{86}$/) });
    expectProblem(await callJson("/api/user/push-tokens/vapid-key"), 401, "unauthorized");
  });
});

describe("POST /api/user/push-tokens with platform web", () => {
  it("registers the subscription as a device of the caller in their community, and unregisters it", async () => {
    const sub = subscription();
    const res = await callJson<{ token: string; platform: string; registeredAt: string }>(
      "/api/user/push-tokens",
      { token: warga.token, body: { platform: "web", subscription: sub } },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ platform: "web", registeredAt: expect.any(String) });
    // The documented token: base64url of "<endpoint> <p256dh> <auth>".
    expect(atob(res.body.token.replace(/-/g, "+").replace(/_/g, "/"))).toBe(
      `${sub.endpoint} ${P256DH} ${AUTH}`,
    );
    expect(res.body.token).toBe(webPushToken(sub));
    expect(await deviceRow(res.body.token)).toEqual({
      user_id: warga.id,
      tenant: tenant.slug,
      platform: "web",
    });

    // Someone of another community cannot remove it; its owner can.
    expectProblem(
      await callJson(`/api/user/push-tokens/${res.body.token}`, { method: "DELETE", token: stranger.token }),
      404,
      "push_token_not_found",
    );
    const del = await call(`/api/user/push-tokens/${res.body.token}`, {
      method: "DELETE",
      token: warga.token,
    });
    expect(del.status).toBe(204);
    expect(await deviceRow(res.body.token)).toBeNull();
  });

  it("takes the keys with or without base64 padding, to the same token", async () => {
    const sub = subscription();
    const padded = { ...sub, keys: { p256dh: `${P256DH}=`, auth: `${AUTH}==` } };
    expect(webPushToken(padded)).toBe(webPushToken(sub));
  });

  it("refuses what is not a usable subscription, naming the field", async () => {
    const cases: [unknown, string][] = [
      [
        { platform: "web", subscription: subscription("http://push.example.test/x") },
        "subscription.endpoint",
      ],
      [{ platform: "web", subscription: subscription("not a url") }, "subscription.endpoint"],
      [{ platform: "web", subscription: { endpoint: "https://push.example.test/x" } }, "subscription.keys"],
      [
        { platform: "web", subscription: { ...subscription(), keys: { p256dh: P256DH, auth: "short" } } },
        "subscription.keys.auth",
      ],
      [
        { platform: "web", subscription: { ...subscription(), keys: { p256dh: "BAAA", auth: AUTH } } },
        "subscription.keys.p256dh",
      ],
      // A web device is its subscription, not a bare token.
      [{ platform: "web", token: "abc" }, "subscription"],
    ];
    for (const [body, field] of cases) {
      const res = await callJson<{ errors?: { field: string }[] }>("/api/user/push-tokens", {
        token: warga.token,
        body,
      });
      expectProblem(res, 400, "invalid_input");
      expect(
        res.body.errors?.map((e) => e.field),
        JSON.stringify(body),
      ).toContain(field);
    }
  });

  it("leaves the Android and iOS apps' registration as it was", async () => {
    const token = `fcm-${crypto.randomUUID()}`;
    const res = await callJson("/api/user/push-tokens", {
      token: warga.token,
      body: { token, platform: "android" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token, platform: "android" });
    expect(await deviceRow(token)).toMatchObject({ platform: "android" });
    // An FCM token is still checked as one.
    expectProblem(
      await callJson("/api/user/push-tokens", {
        token: warga.token,
        body: { token: "a b", platform: "ios" },
      }),
      400,
      "invalid_input",
    );
  });
});
