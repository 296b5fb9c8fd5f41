import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { redact, rememberSecrets } from "../src/http/redact";
import worker from "../src/index";
import type { QueueBody } from "../src/queue/body";
import { fakeFetch, gatewayOk, json } from "./helpers/fakeFetch";
import { callJson, deliver, messageRow, testEnv } from "./helpers/worker";

type Accepted = { messageIds: string[]; batchId?: string };

let net: ReturnType<typeof fakeFetch> | undefined;
afterEach(() => net?.restore());

const cloud = {
  WHATSAPP_PROVIDER: "cloud",
  WHATSAPP_CLOUD_PHONE_NUMBER_ID: "106540352242922",
  WHATSAPP_CLOUD_TOKEN: "EAAG-test",
};

describe("POST /v1/whatsapp/send", () => {
  it("normalizes an Indonesian number and queues one message", async () => {
    const res = await callJson<Accepted>("POST", "/v1/whatsapp/send", {
      body: { to: "0812-3456-7890", message: "Halo" },
    });
    expect(res.status).toBe(202);
    expect(await messageRow(res.body.messageIds[0] ?? "")).toMatchObject({
      channel: "whatsapp",
      status: "queued",
      recipient: "6281234567890",
    });
  });

  it("answers 503 channel_unconfigured without a provider", async () => {
    const res = await callJson("POST", "/v1/whatsapp/send", {
      body: { to: "081234567890", message: "Halo" },
      env: { WHATSAPP_GATEWAY_TOKEN: "" },
    });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: "channel_unconfigured" });
  });
});

describe("gateway provider (Fonnte-like)", () => {
  it("posts target, message and countryCode as a form with the token in Authorization", async () => {
    net = fakeFetch({ "api.fonnte.com": () => gatewayOk("80367170") });
    const res = await callJson<Accepted>("POST", "/v1/whatsapp/send", {
      body: { to: "+62 812 3456 7890", message: "Iuran bulan ini" },
    });
    const id = res.body.messageIds[0] ?? "";
    expect((await deliver([id])).explicitAcks).toHaveLength(1);
    const [sent] = net.to("api.fonnte.com");
    expect(sent?.url).toBe("https://api.fonnte.com/send");
    expect(sent?.headers.get("authorization")).toBe("gateway-test-token");
    const form = await sent?.request.formData();
    expect(form?.get("target")).toBe("6281234567890");
    expect(form?.get("message")).toBe("Iuran bulan ini");
    expect(form?.get("countryCode")).toBe("62");
    expect(await messageRow(id)).toMatchObject({ status: "sent", provider_message_id: "80367170" });
  });

  it("fails an invalid target for good and retries a disconnected device", async () => {
    net = fakeFetch({
      "api.fonnte.com": (call) =>
        call.text.includes("6289999999999")
          ? json({ reason: "target invalid", status: false })
          : json({ reason: "request invalid on disconnected device", status: false }),
    });
    const bad = await callJson<Accepted>("POST", "/v1/whatsapp/send", {
      body: { to: "089999999999", message: "x" },
    });
    const flaky = await callJson<Accepted>("POST", "/v1/whatsapp/send", {
      body: { to: "081111111111", message: "x" },
    });
    await deliver([bad.body.messageIds[0] ?? "", flaky.body.messageIds[0] ?? ""]);
    expect(await messageRow(bad.body.messageIds[0] ?? "")).toMatchObject({
      status: "failed",
      last_error: "gateway refused: target invalid",
    });
    expect(await messageRow(flaky.body.messageIds[0] ?? "")).toMatchObject({ status: "retrying" });
  });
});

describe("WhatsApp Cloud API provider", () => {
  it("posts a text message to /{version}/{phone-number-id}/messages", async () => {
    net = fakeFetch({
      "graph.facebook.com": () =>
        json({
          messaging_product: "whatsapp",
          contacts: [{ input: "6281234567890", wa_id: "6281234567890" }],
          messages: [{ id: "wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBJDQjZCMzlEQUE4OTJBMTE4RTUA" }],
        }),
    });
    const res = await callJson<Accepted>("POST", "/v1/whatsapp/send", {
      body: { to: "081234567890", message: "Halo warga" },
      env: cloud,
    });
    const id = res.body.messageIds[0] ?? "";
    await deliver([id], { env: cloud });
    const [sent] = net.to("graph.facebook.com");
    expect(sent?.url).toBe("https://graph.facebook.com/v21.0/106540352242922/messages");
    expect(sent?.headers.get("authorization")).toBe("Bearer EAAG-test");
    expect(JSON.parse(sent?.text ?? "")).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: "6281234567890",
      type: "text",
      text: { preview_url: false, body: "Halo warga" },
    });
    expect(await messageRow(id)).toMatchObject({
      status: "sent",
      provider_message_id: expect.stringMatching(/^wamid\./),
    });
  });

  it("retries a throughput limit (130429) and fails an undeliverable recipient (131026)", async () => {
    const graphError = (code: number, status: number) =>
      json(
        {
          error: {
            message: `(#${code}) error`,
            type: "OAuthException",
            code,
            fbtrace_id: "Az8or2yhqkZfEZ-_4Qn_Bam",
          },
        },
        status,
      );
    net = fakeFetch({
      "graph.facebook.com": (_, i) => (i === 0 ? graphError(130429, 400) : graphError(131026, 400)),
    });
    const res = await callJson<Accepted>("POST", "/v1/whatsapp/send", {
      body: { to: "081234567890", message: "x" },
      env: cloud,
    });
    const id = res.body.messageIds[0] ?? "";
    expect((await deliver([id], { env: cloud })).retryMessages).toHaveLength(1);
    expect((await deliver([id], { env: cloud, attempts: 2 })).explicitAcks).toHaveLength(1);
    expect(await messageRow(id)).toMatchObject({ status: "failed" });
    expect(String((await messageRow(id))?.last_error)).toContain("code 131026");
  });
});

describe("POST /v1/whatsapp/blast", () => {
  it("logs one message per recipient with variables filled in, paced at the gateway's rate", async () => {
    const res = await callJson<Accepted>("POST", "/v1/whatsapp/blast", {
      body: {
        message: "Halo {{name}}, iuran {{bulan}} sudah bisa dibayar.",
        recipients: [
          { to: "081200000001", variables: { name: "Budi", bulan: "November" } },
          { to: "081200000002", variables: { name: "Sari", bulan: "November" } },
          { to: "081200000003" },
        ],
      },
    });
    expect(res.status).toBe(202);
    expect(res.body.messageIds).toHaveLength(3);
    expect(res.body.batchId).toEqual(expect.any(String));
    const rows = await Promise.all(res.body.messageIds.map(messageRow));
    expect(rows.map((r) => JSON.parse(String(r?.payload)).message)).toEqual([
      "Halo Budi, iuran November sudah bisa dibayar.",
      "Halo Sari, iuran November sudah bisa dibayar.",
      "Halo , iuran  sudah bisa dibayar.",
    ]);
    // WHATSAPP_RATE_PER_MINUTE = 60: one slot per second.
    const slots = rows.map((r) => Date.parse(String(r?.not_before)));
    expect((slots[1] ?? 0) - (slots[0] ?? 0)).toBe(1000);
    expect((slots[2] ?? 0) - (slots[1] ?? 0)).toBe(1000);

    const listed = await callJson<{ items: unknown[] }>("GET", `/v1/messages?batchId=${res.body.batchId}`);
    expect(listed.body.items).toHaveLength(3);
  });

  it("queues a second blast behind the first rather than alongside it", async () => {
    const blast = (n: number) =>
      callJson<Accepted>("POST", "/v1/whatsapp/blast", {
        body: {
          message: "x",
          recipients: Array.from({ length: n }, (_, i) => ({ to: `08130000${String(i).padStart(4, "0")}` })),
        },
      });
    const first = await blast(5);
    const second = await blast(2);
    const lastOfFirst = Date.parse(String((await messageRow(first.body.messageIds[4] ?? ""))?.not_before));
    const firstOfSecond = Date.parse(String((await messageRow(second.body.messageIds[0] ?? ""))?.not_before));
    expect(firstOfSecond).toBeGreaterThan(lastOfFirst);
  });

  it("accepts 1,000 recipients and refuses 1,001", async () => {
    const recipients = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ to: `0814${String(i).padStart(8, "0")}` }));
    const ok = await callJson<Accepted>("POST", "/v1/whatsapp/blast", {
      body: { message: "x", recipients: recipients(1000) },
    });
    expect(ok.status).toBe(202);
    expect(new Set(ok.body.messageIds).size).toBe(1000);
    const tooMany = await callJson("POST", "/v1/whatsapp/blast", {
      body: { message: "x", recipients: recipients(1001) },
    });
    expect(tooMany.status).toBe(400);
  });

  it("holds back a paced message that arrives before its slot without calling the gateway", async () => {
    net = fakeFetch({ "api.fonnte.com": () => gatewayOk() });
    const res = await callJson<Accepted>("POST", "/v1/whatsapp/blast", {
      body: { message: "x", recipients: Array.from({ length: 4 }, (_, i) => ({ to: `08150000000${i}` })) },
    });
    const lastId = res.body.messageIds.at(-1) ?? "";
    const result = await deliver([lastId]);
    expect(result.retryMessages[0]?.delaySeconds).toBeGreaterThan(0);
    expect(net.to("api.fonnte.com")).toHaveLength(0);
    expect(await messageRow(lastId)).toMatchObject({ status: "queued", attempts: 0 });
  });
});

describe("request ids and log redaction", () => {
  it("the API's X-Request-Id rides the queue message and reaches the provider call", async () => {
    const queued: QueueBody[] = [];
    const queue = {
      send: async (body: QueueBody) => {
        queued.push(body);
      },
      sendBatch: async (messages: { body: QueueBody }[]) => {
        queued.push(...messages.map((m) => m.body));
      },
    };
    const res = await callJson<Accepted>("POST", "/v1/whatsapp/send", {
      body: { to: "081234567891", message: "Kerja bakti Minggu" },
      headers: { "x-request-id": "01TRACEREQUEST0000000000AA" },
      env: { NOTIFY_QUEUE: queue },
    });
    expect(res.status).toBe(202);
    expect(res.headers.get("x-request-id")).toBe("01TRACEREQUEST0000000000AA");
    expect(queued).toEqual([{ messageId: res.body.messageIds[0], requestId: "01TRACEREQUEST0000000000AA" }]);

    net = fakeFetch({ "api.fonnte.com": () => gatewayOk("80367171") });
    const batch = createMessageBatch<QueueBody>("warga-notify", [
      { id: "q-trace", timestamp: new Date(), attempts: 1, body: queued[0] as QueueBody },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch as MessageBatch<QueueBody>, testEnv(), ctx);
    await getQueueResult(batch, ctx);
    const [sent] = net.to("api.fonnte.com");
    expect(sent?.headers.get("x-request-id")).toBe("01TRACEREQUEST0000000000AA");
  });

  it("redacts secret values and secret shapes from every console line", () => {
    rememberSecrets(["gateway-test-token", "short"]);
    const line = redact(
      'provider said token=abc123 for gateway-test-token, Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl at /v1/devices/fcm-token-123 {"private_key":"-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----"}',
    );
    expect(line).not.toContain("gateway-test-token");
    expect(line).not.toContain("abc123");
    expect(line).not.toContain("eyJhbGci");
    expect(line).not.toContain("fcm-token-123");
    expect(line).not.toContain("MIIE");
    expect(line).toContain("provider said");
    expect(redact("a short word")).toBe("a short word");
  });
});
