import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { callJson } from "./helpers/worker";

type Item = { id: string; channel: string; status: string; recipient: string; createdAt: string };
type Page = { items: Item[]; nextCursor: string | null };

async function seedMessage(
  id: string,
  fields: { channel: string; status: string; recipient: string; createdAt: string },
) {
  await env.NOTIFY_DB.prepare(
    "INSERT INTO messages (id, channel, status, recipient, payload, attempts, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, '{}', 0, ?5, ?5)",
  )
    .bind(id, fields.channel, fields.status, fields.recipient, fields.createdAt)
    .run();
}

describe("GET /v1/messages", () => {
  it("filters by status, channel, recipient and Jakarta calendar days, newest first", async () => {
    // 2026-11-09T17:30Z is 10 Nov 00:30 in Jakarta; 2026-11-10T16:59Z is 10 Nov 23:59.
    await seedMessage("01LOG00000000000000000001A", {
      channel: "email",
      status: "sent",
      recipient: "log-a@example.com",
      createdAt: "2026-11-09T16:59:00.000Z",
    });
    await seedMessage("01LOG00000000000000000002A", {
      channel: "email",
      status: "dead",
      recipient: "log-a@example.com",
      createdAt: "2026-11-09T17:30:00.000Z",
    });
    await seedMessage("01LOG00000000000000000003A", {
      channel: "whatsapp",
      status: "sent",
      recipient: "6281200000009",
      createdAt: "2026-11-10T16:59:00.000Z",
    });
    await seedMessage("01LOG00000000000000000004A", {
      channel: "push",
      status: "failed",
      recipient: "tok-log",
      createdAt: "2026-11-10T17:00:00.000Z",
    });

    const day = await callJson<Page>("GET", "/v1/messages?from=2026-11-10&to=2026-11-10");
    expect(day.body.items.map((i) => i.id)).toEqual([
      "01LOG00000000000000000003A",
      "01LOG00000000000000000002A",
    ]);

    const dead = await callJson<Page>("GET", "/v1/messages?status=dead&recipient=log-a@example.com");
    expect(dead.body.items.map((i) => i.id)).toEqual(["01LOG00000000000000000002A"]);

    const push = await callJson<Page>("GET", "/v1/messages?channel=push&from=2026-11-11");
    expect(push.body.items.map((i) => i.recipient)).toEqual(["tok-log"]);
    expect(push.body.items[0]).not.toHaveProperty("payload");
  });

  it("pages with limit and cursor", async () => {
    for (let i = 0; i < 5; i++) {
      await seedMessage(`01PAGE000000000000000000${i}P`, {
        channel: "email",
        status: "queued",
        recipient: "page@example.com",
        createdAt: "2026-11-12T00:00:00.000Z",
      });
    }
    const first = await callJson<Page>("GET", "/v1/messages?recipient=page@example.com&limit=2");
    expect(first.body.items.map((i) => i.id)).toEqual([
      "01PAGE0000000000000000004P",
      "01PAGE0000000000000000003P",
    ]);
    expect(first.body.nextCursor).toBe("01PAGE0000000000000000003P");
    const second = await callJson<Page>(
      "GET",
      `/v1/messages?recipient=page@example.com&limit=2&cursor=${first.body.nextCursor}`,
    );
    expect(second.body.items.map((i) => i.id)).toEqual([
      "01PAGE0000000000000000002P",
      "01PAGE0000000000000000001P",
    ]);
    const last = await callJson<Page>(
      "GET",
      `/v1/messages?recipient=page@example.com&limit=2&cursor=${second.body.nextCursor}`,
    );
    expect(last.body.items.map((i) => i.id)).toEqual(["01PAGE0000000000000000000P"]);
    expect(last.body.nextCursor).toBeNull();
  });

  it("defaults to 20 items and rejects a limit over 100 or a bad filter", async () => {
    const page = await callJson<Page>("GET", "/v1/messages");
    expect(page.status).toBe(200);
    expect(page.body.items.length).toBeLessThanOrEqual(20);
    expect((await callJson("GET", "/v1/messages?limit=101")).status).toBe(400);
    expect((await callJson("GET", "/v1/messages?status=lost")).status).toBe(400);
    expect((await callJson("GET", "/v1/messages?from=10-11-2026")).status).toBe(400);
    expect((await callJson("GET", "/v1/messages?from=2026-13-45")).status).toBe(400);
  });

  it("filters by tenant: the tenant part of the reference, nothing that merely resembles it", async () => {
    const seed = async (id: string, reference: string | null) => {
      await env.NOTIFY_DB.prepare(
        "INSERT INTO messages (id, channel, status, recipient, payload, attempts, reference, created_at, updated_at) VALUES (?1, 'email', 'failed', 'tenant@example.com', '{}', 1, ?2, '2026-10-01T00:00:00.000Z', '2026-10-01T00:00:00.000Z')",
      )
        .bind(id, reference)
        .run();
    };
    await seed("01TEN00000000000000000001A", "01TENANTA:pengumuman:1");
    await seed("01TEN00000000000000000002A", "01TENANTA:agenda:2");
    await seed("01TEN00000000000000000003A", "01TENANTAB:pengumuman:3");
    await seed("01TEN00000000000000000004A", "01TENANT_:pengumuman:4");
    await seed("01TEN00000000000000000005A", null);

    const page = await callJson<Page & { items: { reference: string }[] }>(
      "GET",
      "/v1/messages?tenant=01TENANTA&status=failed",
    );
    expect(page.status).toBe(200);
    expect(page.body.items.map((i) => i.id)).toEqual([
      "01TEN00000000000000000002A",
      "01TEN00000000000000000001A",
    ]);
    expect(page.body.items[0]?.reference).toBe("01TENANTA:agenda:2");
    // `_` is LIKE's any-character: escaped, it matches only itself.
    const underscore = await callJson<Page>("GET", "/v1/messages?tenant=01TENANT_");
    expect(underscore.body.items.map((i) => i.id)).toEqual(["01TEN00000000000000000004A"]);
    expect((await callJson("GET", `/v1/messages?tenant=${"x".repeat(129)}`)).status).toBe(400);
  });

  it("answers 404 for an unknown message", async () => {
    const res = await callJson("GET", "/v1/messages/01JD00000000000000000NOPE0");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "message_not_found" });
  });
});

describe("GET /v1/stats", () => {
  it("counts the backlog and dead letters and lists the newest failures per channel, without recipients", async () => {
    const before = await callJson<{ backlog: { total: number }; deadLetters: number; failed: number }>(
      "GET",
      "/v1/stats",
    );
    const seed = async (
      id: string,
      channel: string,
      status: string,
      at: string,
      error: string | null = null,
    ) => {
      await env.NOTIFY_DB.prepare(
        "INSERT INTO messages (id, channel, status, recipient, payload, attempts, last_error, created_at, updated_at) VALUES (?1, ?2, ?3, 'stats@example.com', '{}', 6, ?5, ?4, ?4)",
      )
        .bind(id, channel, status, at, error)
        .run();
    };
    await seed("01STA00000000000000000001A", "email", "queued", "2026-11-01T01:00:00.000Z");
    await seed("01STA00000000000000000002A", "whatsapp", "retrying", "2026-11-01T02:00:00.000Z");
    await seed("01STA00000000000000000003A", "email", "dead", "2026-11-02T01:00:00.000Z", "provider 503");
    for (let i = 0; i < 7; i++) {
      await seed(
        `01STA0000000000000000010${i}A`,
        "whatsapp",
        "failed",
        `2026-11-03T0${i}:00:00.000Z`,
        `refused ${i}`,
      );
    }
    const { status, body } = await callJson<{
      backlog: { queued: number; retrying: number; total: number; oldestAt: string | null };
      deadLetters: number;
      failed: number;
      lastFailures: Record<string, { messageId: string; error: string | null; at: string }[]>;
    }>("GET", "/v1/stats");
    expect(status).toBe(200);
    expect(body.backlog.total).toBe(before.body.backlog.total + 2);
    expect(body.deadLetters).toBe(before.body.deadLetters + 1);
    expect(body.failed).toBe(before.body.failed + 7);
    expect(body.lastFailures.whatsapp).toHaveLength(5);
    expect(body.lastFailures.whatsapp[0]).toMatchObject({
      messageId: "01STA00000000000000000106A",
      error: "refused 6",
    });
    expect(body.lastFailures.email.map((f) => f.messageId)).toContain("01STA00000000000000000003A");
    expect(JSON.stringify(body)).not.toContain("stats@example.com");
  });

  it("needs the internal key", async () => {
    const { status } = await callJson("GET", "/v1/stats", { key: null });
    expect(status).toBe(401);
  });
});
