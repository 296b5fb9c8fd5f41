import { exportPKCS8, generateKeyPair, jwtVerify } from "jose";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { fakeFetch, fcmOk, googleTokenOk, json } from "./helpers/fakeFetch";
import { callJson, deliver, messageRow } from "./helpers/worker";

type Accepted = { messageIds: string[] };

let net: ReturnType<typeof fakeFetch> | undefined;
afterEach(() => net?.restore());

let publicKey: CryptoKey;
let privatePem: string;
beforeAll(async () => {
  const pair = await generateKeyPair("RS256", { extractable: true });
  publicKey = pair.publicKey;
  privatePem = await exportPKCS8(pair.privateKey);
});

// Each test gets its own service account so the per-isolate token cache starts empty.
let accounts = 0;
function pushEnv() {
  accounts += 1;
  return {
    FCM_SERVICE_ACCOUNT: JSON.stringify({
      type: "service_account",
      project_id: "warga-test",
      private_key_id: `key-${accounts}`,
      private_key: privatePem,
      client_email: `notify-${accounts}@warga-test.iam.gserviceaccount.com`,
      token_uri: "https://oauth2.googleapis.com/token",
    }),
  };
}

const data = { screen: "announcement", id: "01JD0000000000000000000001" };

async function register(token: string, userId: string, platform: "ios" | "android" = "android") {
  return callJson<Record<string, unknown>>("POST", "/v1/devices", {
    body: { userId, tenant: "rt05", platform, token },
  });
}

describe("devices", () => {
  it("registers a token, and moves it on a second registration", async () => {
    const first = await register("tok-move", "user-a");
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      token: "tok-move",
      userId: "user-a",
      tenant: "rt05",
      platform: "android",
      active: true,
    });
    const again = await register("tok-move", "user-b", "ios");
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ userId: "user-b", platform: "ios", active: true });
  });

  it("validates the platform", async () => {
    const res = await callJson("POST", "/v1/devices", {
      body: { userId: "u", tenant: "t", platform: "web", token: "x" },
    });
    expect(res.status).toBe(400);
  });

  it("unregisters a token (204) and answers 404 for an unknown one", async () => {
    await register("tok:with/odd chars", "user-c");
    expect((await callJson("DELETE", `/v1/devices/${encodeURIComponent("tok:with/odd chars")}`)).status).toBe(
      204,
    );
    expect((await callJson("DELETE", `/v1/devices/${encodeURIComponent("tok:with/odd chars")}`)).status).toBe(
      404,
    );
  });
});

describe("POST /v1/push/send", () => {
  it("answers 503 channel_unconfigured without an FCM service account", async () => {
    const res = await callJson("POST", "/v1/push/send", {
      body: { tokens: ["t"], title: "a", body: "b", data },
    });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: "channel_unconfigured" });
  });

  it("queues one message per active device of the users", async () => {
    const env = pushEnv();
    await register("tok-u1-a", "u1");
    await register("tok-u1-b", "u1", "ios");
    await register("tok-u2", "u2");
    const res = await callJson<Accepted>("POST", "/v1/push/send", {
      body: { userIds: ["u1", "u2", "u-without-devices"], title: "Pengumuman", body: "Kerja bakti", data },
      env,
    });
    expect(res.status).toBe(202);
    expect(res.body.messageIds).toHaveLength(3);
    const rows = await Promise.all(res.body.messageIds.map(messageRow));
    expect(rows.map((r) => r?.recipient).sort()).toEqual(["tok-u1-a", "tok-u1-b", "tok-u2"]);
  });

  it("needs exactly one of userIds or tokens, and data.screen and data.id", async () => {
    const env = pushEnv();
    const both = await callJson("POST", "/v1/push/send", {
      body: { userIds: ["u"], tokens: ["t"], title: "a", body: "b", data },
      env,
    });
    expect(both.status).toBe(400);
    const neither = await callJson("POST", "/v1/push/send", { body: { title: "a", body: "b", data }, env });
    expect(neither.status).toBe(400);
    const noScreen = await callJson("POST", "/v1/push/send", {
      body: { tokens: ["t"], title: "a", body: "b", data: { id: "1" } },
      env,
    });
    expect(noScreen.status).toBe(400);
  });
});

describe("FCM delivery", () => {
  it("exchanges a signed service-account JWT for an access token, then calls FCM HTTP v1", async () => {
    const env = pushEnv();
    net = fakeFetch({ "oauth2.googleapis.com": () => googleTokenOk(), "fcm.googleapis.com": () => fcmOk() });
    await register("tok-shape", "u-shape", "ios");
    const res = await callJson<Accepted>("POST", "/v1/push/send", {
      body: {
        userIds: ["u-shape"],
        title: "Berita baru",
        body: "Jadwal posyandu",
        data: { screen: "news", id: "n1" },
      },
      env,
    });
    const id = res.body.messageIds[0] ?? "";
    const result = await deliver([id], { env });
    expect(result.explicitAcks).toHaveLength(1);

    const [tokenCall] = net.to("oauth2.googleapis.com");
    expect(tokenCall?.url).toBe("https://oauth2.googleapis.com/token");
    expect(tokenCall?.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    const form = new URLSearchParams(tokenCall?.text);
    expect(form.get("grant_type")).toBe("urn:ietf:params:oauth:grant-type:jwt-bearer");
    const { payload, protectedHeader } = await jwtVerify(form.get("assertion") ?? "", publicKey, {
      audience: "https://oauth2.googleapis.com/token",
    });
    expect(protectedHeader).toMatchObject({ alg: "RS256", typ: "JWT", kid: expect.stringMatching(/^key-/) });
    expect(payload.iss).toMatch(/^notify-\d+@warga-test\.iam\.gserviceaccount\.com$/);
    expect(payload.scope).toBe("https://www.googleapis.com/auth/firebase.messaging");
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(3600);

    const [send] = net.to("fcm.googleapis.com");
    expect(send?.url).toBe("https://fcm.googleapis.com/v1/projects/warga-test/messages:send");
    expect(send?.headers.get("authorization")).toBe("Bearer ya29.test-access-token");
    expect(JSON.parse(send?.text ?? "")).toEqual({
      message: {
        token: "tok-shape",
        notification: { title: "Berita baru", body: "Jadwal posyandu" },
        data: { screen: "news", id: "n1" },
        android: { priority: "HIGH" },
        apns: { headers: { "apns-priority": "10" }, payload: { aps: { sound: "default" } } },
      },
    });
    expect(await messageRow(id)).toMatchObject({
      status: "sent",
      provider_message_id: "projects/warga-test/messages/0:1700000000000000%abc",
    });
  });

  it("caches the access token until it is about to expire", async () => {
    const long = pushEnv();
    net = fakeFetch({
      "oauth2.googleapis.com": () => googleTokenOk(3599),
      "fcm.googleapis.com": () => fcmOk(),
    });
    const sent = await callJson<Accepted>("POST", "/v1/push/send", {
      body: { tokens: ["c1", "c2", "c3"], title: "a", body: "b", data },
      env: long,
    });
    await deliver(sent.body.messageIds, { env: long });
    expect(net.to("oauth2.googleapis.com")).toHaveLength(1);
    expect(net.to("fcm.googleapis.com")).toHaveLength(3);

    // A token that expires within the refresh margin is exchanged again on the next send.
    const short = pushEnv();
    net.restore();
    net = fakeFetch({
      "oauth2.googleapis.com": () => googleTokenOk(30),
      "fcm.googleapis.com": () => fcmOk(),
    });
    const first = await callJson<Accepted>("POST", "/v1/push/send", {
      body: { tokens: ["s1"], title: "a", body: "b", data },
      env: short,
    });
    await deliver(first.body.messageIds, { env: short });
    const second = await callJson<Accepted>("POST", "/v1/push/send", {
      body: { tokens: ["s2"], title: "a", body: "b", data },
      env: short,
    });
    await deliver(second.body.messageIds, { env: short });
    expect(net.to("oauth2.googleapis.com")).toHaveLength(2);
  });

  it("fails the message and deactivates the token when FCM reports UNREGISTERED", async () => {
    const env = pushEnv();
    net = fakeFetch({
      "oauth2.googleapis.com": () => googleTokenOk(),
      "fcm.googleapis.com": () =>
        json(
          {
            error: {
              code: 404,
              message: "Requested entity was not found.",
              status: "NOT_FOUND",
              details: [
                { "@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", errorCode: "UNREGISTERED" },
              ],
            },
          },
          404,
        ),
    });
    await register("tok-gone", "u-gone");
    const res = await callJson<Accepted>("POST", "/v1/push/send", {
      body: { userIds: ["u-gone"], title: "a", body: "b", data },
      env,
    });
    const id = res.body.messageIds[0] ?? "";
    const result = await deliver([id], { env });
    expect(result.explicitAcks).toHaveLength(1);
    expect(await messageRow(id)).toMatchObject({ status: "failed", last_error: "FCM: token unregistered" });

    const again = await callJson<Accepted>("POST", "/v1/push/send", {
      body: { userIds: ["u-gone"], title: "a", body: "b", data },
      env,
    });
    expect(again.body.messageIds).toEqual([]);
    // Registering the token again (the app reinstalled) brings it back.
    await register("tok-gone", "u-gone");
    const revived = await callJson<Accepted>("POST", "/v1/push/send", {
      body: { userIds: ["u-gone"], title: "a", body: "b", data },
      env,
    });
    expect(revived.body.messageIds).toHaveLength(1);
  });

  it("retries QUOTA_EXCEEDED and UNAVAILABLE, fails INVALID_ARGUMENT", async () => {
    const env = pushEnv();
    const fcmError = (status: number, code: string) =>
      json(
        {
          error: {
            code: status,
            status: code,
            details: [{ "@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", errorCode: code }],
          },
        },
        status,
      );
    net = fakeFetch({
      "oauth2.googleapis.com": () => googleTokenOk(),
      "fcm.googleapis.com": (_, i) =>
        [fcmError(429, "QUOTA_EXCEEDED"), fcmError(503, "UNAVAILABLE"), fcmError(400, "INVALID_ARGUMENT")][
          i
        ] ?? json({}, 500),
    });
    const res = await callJson<Accepted>("POST", "/v1/push/send", {
      body: { tokens: ["q1"], title: "a", body: "b", data },
      env,
    });
    const id = res.body.messageIds[0] ?? "";
    expect((await deliver([id], { env })).retryMessages).toHaveLength(1);
    expect((await deliver([id], { env, attempts: 2 })).retryMessages).toHaveLength(1);
    expect((await deliver([id], { env, attempts: 3 })).explicitAcks).toHaveLength(1);
    expect(await messageRow(id)).toMatchObject({ status: "failed", last_error: "FCM 400 INVALID_ARGUMENT" });
  });
});
