import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { bindings, callJson, createTenant, expectProblem, operatorToken } from "../../helpers/harness";

/**
 * The operator's view of the notification service's delivery log (issue 47 item 4): the main API's
 * routes call the real notify Worker over its binding (test/vitest.config.ts); rows are written into
 * its database as its consumer writes them. Only "the service is down" fakes the binding's fetch.
 */

interface Delivery {
  id: string;
  status: string;
  channel: string;
  recipient: string;
  tenantId: string | null;
  lastError: string | null;
  retryable: boolean;
}
interface Page {
  items: Delivery[];
  nextCursor: string | null;
}
interface Detail extends Delivery {
  attemptLog: { attempt: number; outcome: string; error: string | null; providerResponse: string | null }[];
  payload?: unknown;
}

let seq = 0;
function messageId(): string {
  seq += 1;
  return `01DLV${Date.now().toString(36).toUpperCase().padStart(10, "0")}${String(seq).padStart(11, "0")}`;
}

async function seedMessage(fields: {
  status: string;
  recipient: string;
  reference: string | null;
  channel?: string;
  lastError?: string | null;
  createdAt?: string;
}): Promise<string> {
  const id = messageId();
  const at = fields.createdAt ?? "2026-11-20T03:00:00.000Z";
  await env.NOTIFY_DB_TEST.prepare(
    "INSERT INTO messages (id, channel, status, recipient, payload, attempts, reference, last_error, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6, ?7, ?8, ?8)",
  )
    .bind(
      id,
      fields.channel ?? "email",
      fields.status,
      fields.recipient,
      JSON.stringify({ kind: "raw", to: fields.recipient, subject: "Rahasia", text: "Isi pesan pribadi" }),
      fields.reference,
      fields.lastError ?? null,
      at,
    )
    .run();
  await env.NOTIFY_DB_TEST.prepare(
    "INSERT INTO message_attempts (id, message_id, attempt, started_at, finished_at, outcome, provider_status, provider_response, error) VALUES (?1, ?2, 1, ?3, ?3, ?4, 422, ?5, ?6)",
  )
    .bind(
      `${id}A`,
      id,
      at,
      fields.status === "dead" ? "dead" : "failed",
      `{"message":"${fields.recipient} is not a valid address"}`,
      fields.lastError ?? null,
    )
    .run();
  return id;
}

const list = (query: string, token: string) =>
  callJson<Page>(`/api/platform/notifications/messages${query}`, { token });

afterEach(() => vi.restoreAllMocks());

describe("GET /api/platform/notifications/messages", () => {
  it("filters by status, channel and community and masks every recipient", async () => {
    const token = await operatorToken();
    const tenant = await createTenant();
    const other = await createTenant();
    const failed = await seedMessage({
      status: "failed",
      recipient: "budi.santoso@example.id",
      reference: `${tenant.id}:pengumuman:1`,
      lastError: "resend 422: budi.santoso@example.id is not a valid address",
    });
    const parked = await seedMessage({
      status: "dead",
      channel: "whatsapp",
      recipient: "6281234567890",
      reference: `${tenant.id}:pengaduan:2`,
    });
    await seedMessage({ status: "sent", recipient: "siti@example.id", reference: `${tenant.id}:agenda:3` });
    await seedMessage({ status: "failed", recipient: "lain@example.id", reference: `${other.id}:agenda:4` });

    const mine = await list(`?tenantId=${tenant.id}&status=failed`, token);
    expect(mine.status).toBe(200);
    expect(mine.body.items.map((i) => i.id)).toEqual([failed]);
    expect(mine.body.items[0]).toMatchObject({
      recipient: "b***@example.id",
      lastError: "resend 422: b***@example.id is not a valid address",
      tenantId: tenant.id,
      retryable: true,
    });

    const whatsapp = await list(`?tenantId=${tenant.id}&status=dead&channel=whatsapp`, token);
    expect(whatsapp.body.items.map((i) => [i.id, i.recipient])).toEqual([[parked, "6281******890"]]);

    const all = await list(`?tenantId=${tenant.id}`, token);
    expect(all.body.items).toHaveLength(3);
    const text = JSON.stringify(all.body);
    expect(text).not.toContain("budi.santoso");
    expect(text).not.toContain("6281234567890");
    expect(text).not.toContain("Isi pesan pribadi");
    expect(all.body.items.find((i) => i.status === "sent")?.retryable).toBe(false);
  });

  it("pages with a sealed cursor and refuses one it did not give", async () => {
    const token = await operatorToken();
    const tenant = await createTenant();
    for (let i = 0; i < 3; i++) {
      await seedMessage({
        status: "failed",
        recipient: `p${i}@example.id`,
        reference: `${tenant.id}:x:${i}`,
      });
    }
    const first = await list(`?tenantId=${tenant.id}&limit=2`, token);
    expect(first.body.items).toHaveLength(2);
    expect(first.body.nextCursor).toBeTruthy();
    // The service's own cursor is a message id; the wire's is sealed to this list.
    expect(first.body.nextCursor).not.toBe(first.body.items[1]?.id);
    const second = await list(
      `?tenantId=${tenant.id}&limit=2&cursor=${encodeURIComponent(first.body.nextCursor ?? "")}`,
      token,
    );
    expect(second.body.items).toHaveLength(1);
    expect(second.body.nextCursor).toBeNull();

    const forged = await list(`?tenantId=${tenant.id}&cursor=${first.body.items[1]?.id}`, token);
    expectProblem(forged, 400, "invalid_cursor");
  });

  it("refuses a bad filter, an unknown community and anyone but an operator", async () => {
    const token = await operatorToken();
    expectProblem(await list("?status=lost", token), 400, "invalid_input");
    expectProblem(await list("?channel=sms", token), 400, "invalid_input");
    expectProblem(await list("?from=20-11-2026", token), 400, "invalid_input");
    // A shape of a day that is no day (month 82): refused here, not passed on to fail in the service.
    expectProblem(await list("?from=1470-82-98", token), 400, "invalid_input");
    expectProblem(await list("?limit=101", token), 400, "invalid_input");
    expectProblem(await list("?tenantId=01UNKNOWNTENANT0000000000", token), 404, "tenant_not_found");

    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    expectProblem(await list("", admin.token), 403, "forbidden_role");
    expect((await list("", "")).status).toBe(401);
  });

  it("answers 503 notification_unavailable, not a 500, when the service is down", async () => {
    const token = await operatorToken();
    vi.spyOn(bindings.NOTIFY, "fetch").mockImplementation(async () => new Response("down", { status: 503 }));
    const res = await list("", token);
    expectProblem(res, 503, "notification_unavailable");
    expect(res.headers.get("Retry-After")).toBe("2");
    vi.restoreAllMocks();
    vi.spyOn(bindings.NOTIFY, "fetch").mockRejectedValue(new Error("network connection lost"));
    expectProblem(
      await callJson("/api/platform/notifications/messages/01ANY/retry", { method: "POST", token }),
      503,
      "notification_unavailable",
    );
  });
});

describe("GET /api/platform/notifications/messages/:id", () => {
  it("shows the attempts with the recipient masked and without the message's text", async () => {
    const token = await operatorToken();
    const tenant = await createTenant();
    const id = await seedMessage({
      status: "failed",
      recipient: "ani.lestari@example.id",
      reference: `${tenant.id}:pengumuman:9`,
      lastError: "refused",
    });
    const { status, body } = await callJson<Detail>(`/api/platform/notifications/messages/${id}`, { token });
    expect(status).toBe(200);
    expect(body.recipient).toBe("a***@example.id");
    expect(body.attemptLog).toEqual([
      expect.objectContaining({
        attempt: 1,
        outcome: "failed",
        providerResponse: '{"message":"a***@example.id is not a valid address"}',
      }),
    ]);
    expect(body).not.toHaveProperty("payload");
    expect(JSON.stringify(body)).not.toContain("ani.lestari");

    expectProblem(
      await callJson("/api/platform/notifications/messages/01NOSUCHMESSAGE00000000000", { token }),
      404,
      "message_not_found",
    );
  });
});

describe("POST /api/platform/notifications/messages/:id/retry", () => {
  it("queues a failed or parked message again once, audited, and refuses a delivered one", async () => {
    const token = await operatorToken();
    const tenant = await createTenant();
    const failed = await seedMessage({
      status: "failed",
      recipient: "r1@example.id",
      reference: `${tenant.id}:a:1`,
    });
    const parked = await seedMessage({
      status: "dead",
      recipient: "r2@example.id",
      reference: `${tenant.id}:a:2`,
    });
    const sent = await seedMessage({
      status: "sent",
      recipient: "r3@example.id",
      reference: `${tenant.id}:a:3`,
    });
    const retry = (id: string) =>
      callJson<Detail>(`/api/platform/notifications/messages/${id}/retry`, { method: "POST", token });

    const first = await retry(failed);
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ id: failed, status: "queued", retryable: false });
    // Pressed again: it is queued now, so nothing more is queued.
    expectProblem(await retry(failed), 409, "message_not_retryable");

    expect((await retry(parked)).body.status).toBe("queued");
    expectProblem(await retry(sent), 409, "message_not_retryable");
    expectProblem(await retry("01NOSUCHMESSAGE00000000000"), 404, "message_not_found");

    const audit = await bindings.PLATFORM_DB.prepare(
      "SELECT target_id FROM audit_log WHERE action = 'notification.retried' AND target_id IN (?1, ?2, ?3)",
    )
      .bind(failed, parked, sent)
      .all<{ target_id: string }>();
    expect(audit.results.map((r) => r.target_id).sort()).toEqual([failed, parked].sort());

    const admin = await tenant.member("admin");
    expectProblem(
      await callJson(`/api/platform/notifications/messages/${parked}/retry`, {
        method: "POST",
        token: admin.token,
      }),
      403,
      "forbidden_role",
    );
  });
});
