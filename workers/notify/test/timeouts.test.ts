import { env } from "cloudflare:workers";
import { exportPKCS8, generateKeyPair } from "jose";
import { afterEach, beforeAll, describe, expect, it, type MockInstance, vi } from "vitest";
import { createDb } from "../src/db/client";
import { ConfigError, loadConfig } from "../src/env";
import { buildProviders } from "../src/providers";
import { classifyResend } from "../src/providers/email/resend";
import { classifyFcm } from "../src/providers/push/fcm";
import type { FetchFn } from "../src/providers/types";
import { classifyGraph } from "../src/providers/whatsapp/cloud";
import { LEASE_MS, processMessage } from "../src/queue/consumer";
import { json, resendOk } from "./helpers/fakeFetch";
import { callJson, deliver, type EnvOverrides, messageRow, testEnv } from "./helpers/worker";

// Issue 34: every provider call has a deadline well under the claim's lease; a call that runs out of it
// has an unknown outcome; the finish is written only while the claim is held; and each provider's answers
// are classified from its documentation. Deadlines here are 20 ms (PROVIDER_TIMEOUT_SECONDS = 0.02)
// against a fake that never answers until aborted, so the real AbortSignal.timeout path runs, briefly.

type Accepted = { messageIds: string[] };
type Attempt = { outcome: string; provider_status: number | null; error: string | null };

const SHORT = { PROVIDER_TIMEOUT_SECONDS: "0.02" };

let spy: MockInstance | undefined;
afterEach(() => spy?.mockRestore());

// The provider never answers: the call ends only when its signal fires, as fetch does.
function hangingFetch(answer?: (url: string, init: RequestInit | undefined, n: number) => Response | null) {
  const calls: { url: string; init: RequestInit | undefined }[] = [];
  spy = vi.spyOn(globalThis, "fetch").mockImplementation((input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    calls.push({ url, init });
    const ready = answer?.(url, init, calls.length - 1);
    if (ready) {
      return Promise.resolve(ready);
    }
    const signal = init?.signal;
    return new Promise<Response>((_, reject) => {
      if (!signal) {
        reject(new Error(`a provider call without a deadline: ${url}`));
        return;
      }
      signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    });
  });
  return calls;
}

async function attempts(id: string) {
  const { results } = await env.NOTIFY_DB.prepare(
    "SELECT outcome, provider_status, error FROM message_attempts WHERE message_id = ?1 ORDER BY attempt",
  )
    .bind(id)
    .all<Attempt>();
  return results;
}

let privatePem: string;
beforeAll(async () => {
  privatePem = await exportPKCS8((await generateKeyPair("RS256", { extractable: true })).privateKey);
});

const fcmAccount = () => ({
  FCM_SERVICE_ACCOUNT: JSON.stringify({
    project_id: "warga-test",
    private_key_id: `timeouts-${Math.random()}`,
    private_key: privatePem,
    client_email: "notify-timeouts@warga-test.iam.gserviceaccount.com",
    token_uri: "https://oauth2.googleapis.com/token",
  }),
});

describe("the deadline", () => {
  it("is 25 s unless set, and never more than 60 s (half the lease)", () => {
    expect(loadConfig(testEnv({ PROVIDER_TIMEOUT_SECONDS: undefined })).providerTimeoutMs).toBe(25_000);
    expect(loadConfig(testEnv()).providerTimeoutMs).toBe(25_000);
    expect(() => loadConfig(testEnv({ PROVIDER_TIMEOUT_SECONDS: "61" }))).toThrow(ConfigError);
    expect(60_000 * 2).toBeLessThanOrEqual(LEASE_MS);
  });

  it("retries a timed-out Resend call with the same Idempotency-Key, which then answers once", async () => {
    const calls = hangingFetch((_, __, n) => (n === 0 ? null : resendOk("re_after_timeout")));
    const res = await callJson<Accepted>("POST", "/v1/emails/raw", {
      body: { to: "rina@example.com", subject: "Iuran", text: "Tagihan Juni" },
    });
    const id = res.body.messageIds[0] ?? "";
    const first = await deliver([id], { env: SHORT });
    expect(first.retryMessages).toHaveLength(1);
    expect(await messageRow(id)).toMatchObject({ status: "retrying" });
    expect(String((await messageRow(id))?.last_error)).toMatch(
      /^timed out: .*TimeoutError.*outcome unknown$/,
    );
    expect((await deliver([id], { env: SHORT, attempts: 2 })).explicitAcks).toHaveLength(1);
    expect(calls).toHaveLength(2);
    const keys = calls.map((c) => new Headers(c.init?.headers).get("idempotency-key"));
    expect(keys).toEqual([id, id]);
    expect(await messageRow(id)).toMatchObject({ status: "sent", provider_message_id: "re_after_timeout" });
    expect((await attempts(id)).map((a) => [a.outcome, a.provider_status])).toEqual([
      ["retrying", null],
      ["sent", 200],
    ]);
  });

  const keyless: [string, () => EnvOverrides, string, unknown][] = [
    ["the WhatsApp gateway", () => ({}), "/v1/whatsapp/send", { to: "081234567001", message: "Rapat RT" }],
    [
      "the WhatsApp Cloud API",
      () => ({
        WHATSAPP_PROVIDER: "cloud",
        WHATSAPP_CLOUD_PHONE_NUMBER_ID: "106540352242922",
        WHATSAPP_CLOUD_TOKEN: "EAAG-test",
      }),
      "/v1/whatsapp/send",
      { to: "081234567002", message: "Rapat RT" },
    ],
    [
      "FCM",
      fcmAccount,
      "/v1/push/send",
      { tokens: ["tok-timeout"], title: "Rapat", body: "Malam ini", data: { screen: "a", id: "1" } },
    ],
  ];
  for (const [name, overrides, path, body] of keyless) {
    it(`parks a timed-out ${name} call as dead with an unknown outcome and never sends it again by itself`, async () => {
      const calls = hangingFetch((url) =>
        url.startsWith("https://oauth2.googleapis.com")
          ? json({ access_token: "ya29.t", expires_in: 3599, token_type: "Bearer" })
          : null,
      );
      const envs = { ...overrides(), ...SHORT };
      const res = await callJson<Accepted>("POST", path, { body, env: envs });
      const id = res.body.messageIds[0] ?? "";
      const first = await deliver([id], { env: envs });
      // Acked, not retried: no second call, and not the dead-letter queue either.
      expect(first.explicitAcks).toHaveLength(1);
      expect(first.retryMessages).toEqual([]);
      const row = await messageRow(id);
      expect(row).toMatchObject({ status: "dead", attempts: 1 });
      expect(String(row?.last_error)).toContain("outcome unknown");
      expect((await attempts(id)).map((a) => [a.outcome, a.provider_status])).toEqual([["unknown", null]]);
      // A redelivery of the same queue message finds it final and sends nothing.
      expect((await deliver([id], { env: envs, attempts: 2 })).explicitAcks).toHaveLength(1);
      const providerCalls = calls.filter((c) => !c.url.startsWith("https://oauth2.googleapis.com"));
      expect(providerCalls).toHaveLength(1);
      // The operator, having checked, may send it again.
      expect((await callJson("POST", `/v1/messages/${id}/retry`)).status).toBe(202);
    });
  }

  it("parks a send_email binding call that outlives the deadline", async () => {
    const binding = { send: () => new Promise<never>(() => {}) } as unknown as SendEmail;
    const envs = { EMAIL_PROVIDER: "cloudflare", EMAIL: binding, ...SHORT };
    const res = await callJson<Accepted>("POST", "/v1/emails/raw", {
      body: { to: "dewi@example.com", subject: "Surat", text: "Siap diambil" },
      env: envs,
    });
    const id = res.body.messageIds[0] ?? "";
    expect((await deliver([id], { env: envs })).explicitAcks).toHaveLength(1);
    expect(await messageRow(id)).toMatchObject({ status: "dead" });
    expect((await attempts(id)).map((a) => a.outcome)).toEqual(["unknown"]);
  });

  it("counts a token exchange that uses up the deadline as not sent, and retries it", async () => {
    const envs = { ...fcmAccount(), ...SHORT };
    const calls = hangingFetch();
    const res = await callJson<Accepted>("POST", "/v1/push/send", {
      body: { tokens: ["tok-slow-token"], title: "a", body: "b", data: { screen: "a", id: "1" } },
      env: envs,
    });
    const id = res.body.messageIds[0] ?? "";
    expect((await deliver([id], { env: envs })).retryMessages).toHaveLength(1);
    expect(await messageRow(id)).toMatchObject({ status: "retrying" });
    expect(calls.map((c) => new URL(c.url).host)).toEqual(["oauth2.googleapis.com"]);
  });
});

describe("the finish holds the claim", () => {
  function consumerAt(times: number[], fetchFn: FetchFn) {
    const config = loadConfig(testEnv({ WHATSAPP_PROVIDER: "gateway" }));
    let i = 0;
    return {
      db: createDb(env.NOTIFY_DB),
      config,
      providers: buildProviders(config, fetchFn),
      // Each read of the clock takes the next time: the claim, then the finish.
      now: () => new Date(times[Math.min(i++, times.length - 1)] as number),
    };
  }

  it("leaves the message alone and logs claim_lost when the lease ran out during the call", async () => {
    const start = Date.parse("2026-06-02T02:00:00.000Z");
    let calls = 0;
    const fetchFn: FetchFn = async () => {
      calls += 1;
      return json({ detail: "success! message in queue", id: ["90000001"], status: true });
    };
    const res = await callJson<Accepted>("POST", "/v1/whatsapp/send", {
      body: { to: "081234567003", message: "Ronda malam" },
    });
    const id = res.body.messageIds[0] ?? "";
    // The isolate stalled: the answer came after the lease (a deadline cannot cut a frozen isolate short).
    const late = await processMessage(id, 1, consumerAt([start, start + LEASE_MS + 1_000], fetchFn));
    expect(late).toMatchObject({ action: "retry", reason: "claim expired" });
    const row = await messageRow(id);
    expect(row).toMatchObject({ status: "sending", attempts: 1, provider_message_id: null });
    expect(await attempts(id)).toEqual([{ outcome: "claim_lost", provider_status: 200, error: null }]);

    // The next holder finishes it from what the first consumer saw, without a second send.
    const next = await processMessage(
      id,
      2,
      consumerAt([start + LEASE_MS + 5_000, start + LEASE_MS + 6_000], fetchFn),
    );
    expect(next).toMatchObject({ action: "ack", reason: "sent" });
    expect(calls).toBe(1);
    expect(await messageRow(id)).toMatchObject({
      status: "sent",
      attempts: 2,
      provider_message_id: "90000001",
    });
    expect((await attempts(id)).map((a) => [a.outcome, a.provider_status])).toEqual([
      ["claim_lost", 200],
      ["sent", null],
    ]);
  });

  it("acks without touching the message when another consumer took it over mid-call", async () => {
    const start = Date.parse("2026-06-02T03:00:00.000Z");
    const res = await callJson<Accepted>("POST", "/v1/whatsapp/send", {
      body: { to: "081234567004", message: "Kerja bakti" },
    });
    const id = res.body.messageIds[0] ?? "";
    let n = 0;
    const fetchFn: FetchFn = async () => {
      n += 1;
      if (n === 1) {
        // While this call is open, a second consumer claims the message after the lease and is refused.
        const rival = await processMessage(
          id,
          2,
          consumerAt([start + LEASE_MS + 1_000, start + LEASE_MS + 2_000], fetchFn),
        );
        expect(rival.action).toBe("retry");
        return json({ detail: "success! message in queue", id: ["90000002"], status: true });
      }
      return json({ status: false, reason: "device disconnected" });
    };
    const first = await processMessage(id, 1, consumerAt([start, start + 10_000], fetchFn));
    expect(first).toMatchObject({ action: "ack", reason: "claim lost to another consumer" });
    // The rival's outcome stands; the first consumer's answer is in the log.
    expect(await messageRow(id)).toMatchObject({ status: "retrying", attempts: 2 });
    expect((await attempts(id)).map((a) => [a.outcome, a.provider_status, a.error])).toEqual([
      ["claim_lost", 200, null],
      ["retrying", 200, "gateway refused: device disconnected"],
    ]);
  });
});

describe("answers classified from each provider's documentation", () => {
  const resend = (status: number, name: string) =>
    classifyResend(status, JSON.stringify({ statusCode: status, name, message: "..." }));
  it("Resend: 409 concurrent_idempotent_requests and 429s retry; 409 invalid_idempotent_request and 4xx fail", () => {
    expect(resend(409, "concurrent_idempotent_requests").retryable).toBe(true);
    expect(resend(409, "invalid_idempotent_request").retryable).toBe(false);
    expect(resend(429, "rate_limit_exceeded").retryable).toBe(true);
    expect(resend(429, "daily_quota_exceeded").retryable).toBe(true);
    expect(resend(500, "application_error").retryable).toBe(true);
    expect(resend(400, "validation_error").retryable).toBe(false);
    expect(resend(403, "validation_error").retryable).toBe(false);
    expect(resend(422, "missing_required_field").retryable).toBe(false);
    expect(resend(409, "concurrent_idempotent_requests").error).toBe(
      "email API answered 409 concurrent_idempotent_requests",
    );
  });

  const fcm = (status: number, code: string, retryAfter?: number) =>
    classifyFcm(
      status,
      JSON.stringify({
        error: {
          code: status,
          status: code,
          details: [{ "@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", errorCode: code }],
        },
      }),
      retryAfter,
    );
  it("FCM: UNAVAILABLE, INTERNAL, QUOTA_EXCEEDED retry; UNREGISTERED removes the token; the rest fail", () => {
    expect(fcm(503, "UNAVAILABLE", 30)).toMatchObject({ retryable: true, retryAfterSeconds: 30 });
    expect(fcm(500, "INTERNAL").retryable).toBe(true);
    // The first retry after a quota error waits at least a minute, whatever the header says.
    expect(fcm(429, "QUOTA_EXCEEDED", 5)).toMatchObject({ retryable: true, retryAfterSeconds: 60 });
    expect(fcm(401, "THIRD_PARTY_AUTH_ERROR").retryable).toBe(true);
    expect(fcm(404, "UNREGISTERED")).toMatchObject({ retryable: false, deactivateToken: true });
    expect(fcm(400, "INVALID_ARGUMENT")).toMatchObject({ retryable: false });
    expect(fcm(403, "SENDER_ID_MISMATCH")).toMatchObject({ retryable: false });
    expect(fcm(403, "SENDER_ID_MISMATCH").deactivateToken).toBeUndefined();
  });

  const graph = (status: number, code: number) =>
    classifyGraph(status, JSON.stringify({ error: { message: `(#${code})`, code, fbtrace_id: "x" } }));
  it("WhatsApp Cloud API: throughput and pair-rate limits and Meta's outages retry; recipients' problems fail", () => {
    for (const code of [130429, 131056, 131048, 80007, 131000, 131016, 133004]) {
      expect(graph(400, code).retryable, String(code)).toBe(true);
    }
    for (const code of [131026, 131047, 131049, 131030, 100]) {
      expect(graph(400, code).retryable, String(code)).toBe(false);
    }
  });

  it("the WhatsApp gateway: its own 504 (upstream timeout) retries, an invalid target fails", async () => {
    hangingFetch((_, __, n) =>
      n === 0
        ? new Response("<html>504 Gateway Time-out</html>", { status: 504 })
        : json({ status: false, reason: "invalid target" }),
    );
    const res = await callJson<Accepted>("POST", "/v1/whatsapp/send", {
      body: { to: "081234567005", message: "Posyandu besok" },
    });
    const id = res.body.messageIds[0] ?? "";
    expect((await deliver([id])).retryMessages).toHaveLength(1);
    expect((await deliver([id], { attempts: 2 })).explicitAcks).toHaveLength(1);
    expect(await messageRow(id)).toMatchObject({ status: "failed" });
  });

  it("Resend's 409 concurrent_idempotent_requests comes back later instead of failing a message it probably sent", async () => {
    hangingFetch((_, __, n) =>
      n === 0
        ? json(
            {
              statusCode: 409,
              name: "concurrent_idempotent_requests",
              message: "Same idempotency key used while original request is still in progress.",
            },
            409,
          )
        : resendOk("re_concurrent"),
    );
    const res = await callJson<Accepted>("POST", "/v1/emails/raw", {
      body: { to: "joko@example.com", subject: "Iuran", text: "Juni" },
    });
    const id = res.body.messageIds[0] ?? "";
    expect((await deliver([id])).retryMessages).toHaveLength(1);
    expect((await deliver([id], { attempts: 2 })).explicitAcks).toHaveLength(1);
    expect(await messageRow(id)).toMatchObject({ status: "sent", provider_message_id: "re_concurrent" });
  });
});
