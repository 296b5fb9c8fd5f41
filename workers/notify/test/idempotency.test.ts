import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { callJson } from "./helpers/worker";

type Accepted = { messageIds: string[]; replayed: boolean; batchId?: string };

async function countFor(recipient: string): Promise<number> {
  const row = await env.NOTIFY_DB.prepare("SELECT COUNT(*) AS n FROM messages WHERE recipient = ?1")
    .bind(recipient)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

describe("idempotency", () => {
  it("returns the first request's ids for a repeated Idempotency-Key header and writes nothing new", async () => {
    const body = { to: "idem-1@example.com", subject: "Tes", text: "Halo" };
    const headers = { "idempotency-key": "reset-123" };
    const first = await callJson<Accepted>("POST", "/v1/emails/raw", { body, headers });
    const second = await callJson<Accepted>("POST", "/v1/emails/raw", { body, headers });
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(second.body).toEqual({ messageIds: first.body.messageIds, replayed: true });
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(await countFor("idem-1@example.com")).toBe(1);
  });

  it("accepts the key in the body, and ignores key order in the repeated body", async () => {
    const first = await callJson<Accepted>("POST", "/v1/emails/send", {
      body: {
        template: "CONTACT_AUTO_REPLY",
        to: "idem-2@example.com",
        data: { name: "Sari", message: "x", replyToken: "tok-0123456789abcdef0123" },
        idempotencyKey: "contact-9",
      },
    });
    const second = await callJson<Accepted>("POST", "/v1/emails/send", {
      body: {
        idempotencyKey: "contact-9",
        data: { message: "x", replyToken: "tok-0123456789abcdef0123", name: "Sari" },
        to: "idem-2@example.com",
        template: "CONTACT_AUTO_REPLY",
      },
    });
    expect(second.body.messageIds).toEqual(first.body.messageIds);
    expect(await countFor("idem-2@example.com")).toBe(1);
  });

  it("answers 422 idempotency_key_reused (as the API does) when a key is reused with a different request", async () => {
    const headers = { "idempotency-key": "wa-77" };
    await callJson("POST", "/v1/whatsapp/send", { body: { to: "081277700001", message: "a" }, headers });
    const res = await callJson("POST", "/v1/whatsapp/send", {
      body: { to: "081277700001", message: "b" },
      headers,
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: "idempotency_key_reused" });
  });

  it("answers 400 when the header and the body field disagree", async () => {
    const res = await callJson("POST", "/v1/whatsapp/send", {
      body: { to: "081277700002", message: "a", idempotencyKey: "one" },
      headers: { "idempotency-key": "two" },
    });
    expect(res.status).toBe(400);
  });

  it("sends once when the same key arrives concurrently", async () => {
    const body = { to: "081277700003", message: "serentak" };
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        callJson<Accepted>("POST", "/v1/whatsapp/send", { body, headers: { "idempotency-key": "race-1" } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([202, 202, 202, 202, 202]);
    expect(new Set(results.map((r) => r.body.messageIds.join()))).toHaveProperty("size", 1);
    expect(await countFor("6281277700003")).toBe(1);
  });

  it("replays a blast with the same ids and batch id", async () => {
    const body = {
      message: "x",
      recipients: [{ to: "081277700004" }, { to: "081277700005" }],
      idempotencyKey: "blast-1",
    };
    const first = await callJson<Accepted>("POST", "/v1/whatsapp/blast", { body });
    const second = await callJson<Accepted>("POST", "/v1/whatsapp/blast", { body });
    expect(second.body).toEqual({ ...first.body, replayed: true });
    expect(await countFor("6281277700004")).toBe(1);
  });

  it("scopes keys per operation", async () => {
    const headers = { "idempotency-key": "shared-key" };
    const email = await callJson<Accepted>("POST", "/v1/emails/raw", {
      body: { to: "idem-3@example.com", subject: "a", text: "b" },
      headers,
    });
    const wa = await callJson<Accepted>("POST", "/v1/whatsapp/send", {
      body: { to: "081277700006", message: "b" },
      headers,
    });
    expect(wa.status).toBe(202);
    expect(wa.body.messageIds).not.toEqual(email.body.messageIds);
  });
});
