import { exportPKCS8, generateKeyPair, jwtVerify } from "jose";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
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

describe("DELETE /v1/devices/:token?userId=", () => {
  it("removes the token only for the user it is registered to", async () => {
    await register("tok-owned", "owner");
    expect((await callJson("DELETE", "/v1/devices/tok-owned?userId=someone-else")).status).toBe(404);
    expect((await callJson("DELETE", "/v1/devices/tok-owned?userId=owner")).status).toBe(204);
    expect((await callJson("DELETE", "/v1/devices/tok-owned?userId=owner")).status).toBe(404);
  });
});

describe("preferences", () => {
  it("answers the defaults for a user who never chose, and stores a choice", async () => {
    const fresh = await callJson("GET", "/v1/preferences/pref-new");
    expect(fresh.body).toEqual({
      push: true,
      whatsapp: true,
      email: true,
      quietHours: { start: "21:00", end: "07:00" },
    });
    const choice = {
      push: false,
      whatsapp: true,
      email: false,
      quietHours: { start: "22:30", end: "05:00" },
    };
    expect((await callJson("PUT", "/v1/preferences/pref-new", { body: choice })).body).toEqual(choice);
    expect((await callJson("GET", "/v1/preferences/pref-new")).body).toEqual(choice);
  });

  it("refuses a malformed clock time", async () => {
    const res = await callJson("PUT", "/v1/preferences/pref-bad", {
      body: { push: true, whatsapp: true, email: true, quietHours: { start: "24:00", end: "7:00" } },
    });
    expect(res.status).toBe(400);
  });
});

describe("fan-out", () => {
  afterEach(() => vi.useRealTimers());

  type Summary = {
    channels: Record<
      "push" | "whatsapp" | "email",
      {
        total: number;
        queued: number;
        scheduled: number;
        sent: number;
        skipped: number;
        skippedReasons: Record<string, number>;
      }
    >;
  };
  const pushContent = { title: "Kerja bakti", body: "Minggu pagi", data: { screen: "pengumuman", id: "p1" } };

  async function fan(body: Record<string, unknown>, env: Record<string, unknown> = pushEnv()) {
    return callJson<Accepted>("POST", "/v1/fanout", { body: { tenant: "rt05", ...body }, env });
  }

  it("skips opted-out users and users without devices, with reasons in the summary", async () => {
    await register("fan-a-1", "fan-a");
    await register("fan-a-2", "fan-a", "ios");
    await register("fan-b-1", "fan-b");
    await callJson("PUT", "/v1/preferences/fan-b", {
      body: { push: false, whatsapp: true, email: true, quietHours: { start: "00:00", end: "00:00" } },
    });
    await callJson("PUT", "/v1/preferences/fan-a", {
      body: { push: true, whatsapp: true, email: true, quietHours: { start: "00:00", end: "00:00" } },
    });
    const res = await fan({
      reference: "rt05:pengumuman:skip",
      channel: "push",
      recipients: [{ userId: "fan-a" }, { userId: "fan-b" }, { userId: "fan-c" }],
      push: pushContent,
      idempotencyKey: "skip:v1:push",
    });
    expect(res.status).toBe(202);
    const summary = await callJson<Summary>("GET", "/v1/fanout/summary?reference=rt05:pengumuman:skip");
    expect(summary.body.channels.push).toMatchObject({
      total: 4,
      queued: 2,
      scheduled: 0,
      skipped: 2,
      skippedReasons: { opted_out: 1, no_device: 1 },
    });
    // A skipped row is final: the consumer never sends it.
    const rows = await Promise.all(res.body.messageIds.map(messageRow));
    const skipped = rows.filter((r) => r?.status === "skipped");
    const verdict = await deliver(skipped.map((r) => String(r?.id)));
    expect(verdict.explicitAcks).toHaveLength(2);
    expect((await messageRow(String(skipped[0]?.id)))?.attempts).toBe(0);
  });

  it("holds a message during quiet hours until they end, and sends urgent ones at once", async () => {
    await register("quiet-1", "quiet-user");
    // 23:30 WIB = 16:30 UTC: inside the default 21:00–07:00 window, which ends at 07:00 WIB (00:00 UTC).
    vi.useFakeTimers({ now: new Date("2026-11-23T16:30:00Z"), toFake: ["Date"] });
    const held = await fan({
      reference: "rt05:pengumuman:quiet",
      channel: "push",
      recipients: [{ userId: "quiet-user" }],
      push: pushContent,
    });
    expect((await messageRow(held.body.messageIds[0] ?? ""))?.not_before).toBe("2026-11-24T00:00:00.000Z");
    const urgent = await fan({
      reference: "rt05:pengumuman:urgent",
      channel: "push",
      urgent: true,
      recipients: [{ userId: "quiet-user" }],
      push: pushContent,
    });
    expect((await messageRow(urgent.body.messageIds[0] ?? ""))?.not_before).toBeNull();
    const summary = await callJson<Summary>("GET", "/v1/fanout/summary?reference=rt05:pengumuman:quiet");
    expect(summary.body.channels.push).toMatchObject({ queued: 1, scheduled: 1 });
    // The consumer puts it back until the quiet hours end.
    const early = await deliver(held.body.messageIds);
    expect(early.retryMessages[0]?.delaySeconds).toBe(7.5 * 3600);
  });

  it("treats the edges of the quiet hours exactly: the start minute is quiet, the end minute is not", async () => {
    await register("edge-1", "edge-user");
    const at = async (iso: string, ref: string) => {
      vi.setSystemTime(new Date(iso));
      const res = await fan({
        reference: ref,
        channel: "push",
        recipients: [{ userId: "edge-user" }],
        push: pushContent,
      });
      return (await messageRow(res.body.messageIds[0] ?? ""))?.not_before;
    };
    vi.useFakeTimers({ toFake: ["Date"] });
    expect(await at("2026-11-23T13:59:59Z", "edge:a")).toBeNull(); // 20:59:59 WIB
    expect(await at("2026-11-23T14:00:00Z", "edge:b")).toBe("2026-11-24T00:00:00.000Z"); // 21:00 WIB
    expect(await at("2026-11-23T23:59:59Z", "edge:c")).toBe("2026-11-24T00:00:00.000Z"); // 06:59:59 WIB
    expect(await at("2026-11-24T00:00:00Z", "edge:d")).toBeNull(); // 07:00 WIB
  });

  it("sends WhatsApp and email to the given addresses, skipping missing and invalid ones", async () => {
    await callJson("PUT", "/v1/preferences/wa-off", {
      body: { push: true, whatsapp: false, email: true, quietHours: { start: "00:00", end: "00:00" } },
    });
    for (const id of ["wa-1", "wa-2", "wa-3"]) {
      await callJson("PUT", `/v1/preferences/${id}`, {
        body: { push: true, whatsapp: true, email: true, quietHours: { start: "00:00", end: "00:00" } },
      });
    }
    const wa = await fan({
      reference: "rt05:pengumuman:wa",
      channel: "whatsapp",
      recipients: [
        { userId: "wa-1", address: "081234567801" },
        { userId: "wa-2", address: "+62 812-3456-7802" },
        { userId: "wa-3" },
        { userId: "wa-off", address: "081234567804" },
      ],
      whatsapp: { message: "*Kerja bakti*\nMinggu pagi" },
    });
    const rows = await Promise.all(wa.body.messageIds.map(messageRow));
    const queued = rows.filter((r) => r?.status === "queued");
    expect(queued.map((r) => r?.recipient).sort()).toEqual(["6281234567801", "6281234567802"]);
    // Paced: one a second at 60 per minute.
    const times = queued.map((r) => Date.parse(String(r?.not_before))).sort();
    expect((times[1] ?? 0) - (times[0] ?? 0)).toBe(1000);
    const summary = await callJson<Summary>("GET", "/v1/fanout/summary?reference=rt05:pengumuman:wa");
    expect(summary.body.channels.whatsapp.skippedReasons).toEqual({ no_address: 1, opted_out: 1 });

    const mail = await fan({
      reference: "rt05:pengumuman:mail",
      channel: "email",
      recipients: [
        { userId: "wa-1", address: "warga1@example.com" },
        { userId: "wa-2", address: "bukan-email" },
      ],
      email: { subject: "Kerja bakti", text: "Minggu pagi", html: "<p>Minggu pagi</p>" },
    });
    const mailRows = await Promise.all(mail.body.messageIds.map(messageRow));
    expect(mailRows.map((r) => [r?.status, r?.recipient, r?.last_error])).toEqual([
      ["queued", "warga1@example.com", null],
      ["skipped", "bukan-email", "invalid_address"],
    ]);
  });

  it("skips everyone on a channel with no provider instead of failing", async () => {
    const res = await fan(
      {
        reference: "rt05:pengumuman:nopush",
        channel: "push",
        recipients: [{ userId: "np" }],
        push: pushContent,
      },
      {},
    );
    expect(res.status).toBe(202);
    const summary = await callJson<Summary>("GET", "/v1/fanout/summary?reference=rt05:pengumuman:nopush");
    expect(summary.body.channels.push.skippedReasons).toEqual({ channel_unconfigured: 1 });
  });

  it("replays a key for the same version and channel even when the recipients changed", async () => {
    await register("idem-1", "idem-a");
    await register("idem-2", "idem-b");
    const body = {
      reference: "rt05:pengumuman:idem",
      channel: "push",
      recipients: [{ userId: "idem-a" }],
      push: pushContent,
      idempotencyKey: "rt05:pengumuman:idem:v1:push",
    };
    const env = pushEnv();
    const first = await fan(body, env);
    const again = await fan({ ...body, recipients: [{ userId: "idem-a" }, { userId: "idem-b" }] }, env);
    expect(again.body).toEqual({ ...first.body, replayed: true });
    const summary = await callJson<Summary>("GET", "/v1/fanout/summary?reference=rt05:pengumuman:idem");
    expect(summary.body.channels.push.total).toBe(1);
  });

  it("refuses a fan-out without the content of its channel", async () => {
    const res = await fan({
      reference: "x",
      channel: "email",
      recipients: [{ userId: "u" }],
      push: pushContent,
    });
    expect(res.status).toBe(400);
  });
});
