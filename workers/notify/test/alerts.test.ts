import { createMessageBatch } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../src/db/client";
import { loadConfig } from "../src/env";
import { buildProviders } from "../src/providers";
import type { FetchFn } from "../src/providers/types";
import type { QueueBody } from "../src/queue/body";
import { type ConsumerDeps, processMessage } from "../src/queue/consumer";
import { consumeDeadLetters } from "../src/queue/deadLetter";
import { ALERT_REFERENCE_PREFIX, alertStatusOf, normaliseError, raiseAlert } from "../src/services/alerts";
import { deliveryStats } from "../src/services/stats";
import { json } from "./helpers/fakeFetch";
import { captureBinding } from "./helpers/mail";
import { callJson, type EnvOverrides, messageRow, testEnv } from "./helpers/worker";

// Issue 42: delivery trouble is never silent. Every clock here is a fixed time handed to the consumer;
// each test uses its own hour, so counts and emails of one test never meet another's.

type Accepted = { messageIds: string[] };
type AlertRow = {
  cause: string;
  hour: string;
  status: string;
  count: number;
  email_message_id: string | null;
};

const OPERATOR = "operator@warga.test";

const at = (iso: string) => () => new Date(iso);

function deps(fetchFn: FetchFn, now: () => Date, overrides: EnvOverrides = {}): ConsumerDeps {
  const config = loadConfig(testEnv({ EMAIL_PROVIDER: "http", ...overrides }));
  return {
    db: createDb(env.NOTIFY_DB),
    config,
    providers: buildProviders(config, fetchFn),
    now,
    queue: env.NOTIFY_QUEUE,
  };
}

const answering =
  (status: number, body: unknown = { name: "application_error", message: "down" }): FetchFn =>
  async () =>
    json(body, status);

async function rawEmail(to: string, subject = "Surat siap diambil") {
  const res = await callJson<Accepted>("POST", "/v1/emails/raw", { body: { to, subject, text: "Halo" } });
  return res.body.messageIds[0] ?? "";
}

async function ticketEmail(to: string) {
  const res = await callJson<Accepted>("POST", "/v1/emails/send", {
    body: {
      template: "SUPPORT_TICKET_CREATED",
      to,
      replyTo: "balas@support.warga.test",
      data: {
        replyToken: "3f9a1c2e7b5d4a60",
        ticketNumber: "1024",
        ticketSubject: "Laporan kas",
        submitterName: "Budi",
        ticketUrl: "https://warga.example/tiket/x",
      },
    },
  });
  return res.body.messageIds[0] ?? "";
}

async function alertsOf(hour: string) {
  const { results } = await env.NOTIFY_DB.prepare(
    "SELECT * FROM operator_alerts WHERE hour = ?1 ORDER BY cause",
  )
    .bind(hour)
    .all<AlertRow>();
  return results;
}

async function alertEmails(hour: string) {
  const { results } = await env.NOTIFY_DB.prepare(
    "SELECT id, recipient, subject, payload, status FROM messages WHERE reference = ?1 ORDER BY id",
  )
    .bind(`${ALERT_REFERENCE_PREFIX}${hour}`)
    .all<{ id: string; recipient: string; subject: string; payload: string; status: string }>();
  return results;
}

describe("operator alerts", () => {
  it("a message still retrying after its second attempt alerts once: the health stats and one email", async () => {
    const now = at("2026-03-01T01:10:00.000Z");
    const d = deps(answering(503), now);
    const id = await ticketEmail("budi.alert1@example.com");
    expect((await processMessage(id, 1, d)).action).toBe("retry");
    // One transient failure is not yet news.
    expect(await alertsOf("2026-03-01T01")).toEqual([]);
    expect((await processMessage(id, 2, d)).action).toBe("retry");
    expect(await messageRow(id)).toMatchObject({ status: "retrying", attempts: 2 });
    const alerts = await alertsOf("2026-03-01T01");
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      cause: "email|resend|SUPPORT_TICKET_CREATED|email API answered 503 application_error",
      status: "retrying",
      count: 1,
    });
    const emails = await alertEmails("2026-03-01T01");
    expect(emails.map((e) => [e.recipient, e.status])).toEqual([[OPERATOR, "queued"]]);
    expect(alerts[0]?.email_message_id).toBe(emails[0]?.id);
    expect(emails[0]?.subject).toBe("[Warga] Peringatan pengiriman: email SUPPORT_TICKET_CREATED via resend");
    expect(JSON.parse(emails[0]?.payload ?? "{}").text).toContain(`Pesan: ${id}`);

    const stats = await deliveryStats({ ...d, queue: env.NOTIFY_QUEUE, now });
    expect(stats.alerts[0]).toMatchObject({
      hour: "2026-03-01T01",
      kind: "SUPPORT_TICKET_CREATED",
      provider: "resend",
      count: 1,
      emailed: true,
      lastMessageId: id,
    });
  });

  it("emails at most once per cause per hour; another cause or the next hour emails again", async () => {
    const first = at("2026-03-02T05:00:00.000Z");
    const d = deps(answering(422, { name: "validation_error", message: "Invalid `to` field." }), first);
    for (const n of [1, 2, 3]) {
      const id = await rawEmail(`a${n}.alert2@example.com`);
      expect((await processMessage(id, 1, d)).action).toBe("ack");
      expect(await messageRow(id)).toMatchObject({ status: "failed" });
    }
    expect((await alertsOf("2026-03-02T05")).map((a) => [a.status, a.count])).toEqual([["failed", 3]]);
    expect(await alertEmails("2026-03-02T05")).toHaveLength(1);

    // Another cause in the same hour (a template, not a raw email) is news of its own.
    const other = await ticketEmail("b.alert2@example.com");
    await processMessage(other, 1, d);
    expect(await alertsOf("2026-03-02T05")).toHaveLength(2);
    expect(await alertEmails("2026-03-02T05")).toHaveLength(2);

    // The first cause an hour later emails again.
    const later = deps(answering(422, { name: "validation_error" }), at("2026-03-02T06:00:01.000Z"));
    await processMessage(await rawEmail("c.alert2@example.com"), 1, later);
    expect(await alertEmails("2026-03-02T06")).toHaveLength(1);
  });

  it("dedupes atomically: many consumers raising one cause at once send one email", async () => {
    const d = deps(answering(503), at("2026-03-03T07:30:00.000Z"));
    const ctx = { db: d.db, config: d.config, queue: env.NOTIFY_QUEUE, now: d.now };
    const raised = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        raiseAlert(ctx, {
          message: {
            id: `01JALERT0000000000000000${String(i).padStart(2, "0")}`,
            channel: "email",
            template: "WELCOME",
            reference: null,
          },
          provider: "resend",
          status: "dead",
          error: `email API answered 500 internal_server_error for x${i}@example.com`,
        }),
      ),
    );
    expect(raised.filter((r) => r.first)).toHaveLength(1);
    expect(raised.flatMap((r) => r.emailed)).toHaveLength(1);
    expect((await alertsOf("2026-03-03T07")).map((a) => a.count)).toEqual([8]);
    expect(await alertEmails("2026-03-03T07")).toHaveLength(1);
  });

  it("an alert email that fails is shown but never emailed about, so a broken provider cannot loop", async () => {
    const hour = "2026-03-04T09";
    const d = deps(answering(422, { name: "validation_error" }), at(`${hour}:00:00.000Z`));
    await processMessage(await rawEmail("a.alert4@example.com"), 1, d);
    const [alertEmail] = await alertEmails(hour);
    expect(alertEmail).toBeDefined();
    // The same broken provider refuses the alert email, in this hour and the next.
    expect((await processMessage(alertEmail?.id ?? "", 1, d)).action).toBe("ack");
    expect(await messageRow(alertEmail?.id ?? "")).toMatchObject({ status: "failed" });
    const next = deps(answering(422, { name: "validation_error" }), at("2026-03-04T10:00:00.000Z"));
    await processMessage(alertEmail?.id ?? "", 2, next);
    // Its failure is counted (the health view shows the alert email failing) ...
    const alerts = await alertsOf(hour);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.count).toBe(2);
    // ... and no email about it was queued: still only the one alert email.
    expect(await alertEmails(hour)).toHaveLength(1);
    expect(await alertEmails("2026-03-04T10")).toHaveLength(0);
    const { n } = (await env.NOTIFY_DB.prepare(
      "SELECT count(*) AS n FROM messages WHERE reference LIKE 'operator-alert:2026-03-04%'",
    ).first<{ n: number }>()) ?? { n: -1 };
    expect(n).toBe(1);
  });

  it("the send_email provider's MIME failure (issue 42's Reply-To) is failed at once and alerts", async () => {
    const hour = "2026-03-05T11";
    const { binding } = captureBinding();
    const d = deps(answering(200), at(`${hour}:00:00.000Z`), {
      EMAIL_PROVIDER: "cloudflare",
      EMAIL: binding,
    });
    const res = await callJson<Accepted>("POST", "/v1/emails/raw", {
      body: { to: "x.alert5@example.com", subject: "s", text: "t", headers: { "X-Ref": "ok" } },
    });
    const id = res.body.messageIds[0] ?? "";
    // A payload no provider can build (written straight into the log, as an older row might be).
    await env.NOTIFY_DB.prepare("UPDATE messages SET payload = ?2 WHERE id = ?1")
      .bind(
        id,
        JSON.stringify({
          to: "x.alert5@example.com",
          subject: "s",
          text: "t",
          replyTo: "a@b.test\r\nBcc: z@c.test",
        }),
      )
      .run();
    expect((await processMessage(id, 1, d)).action).toBe("ack");
    expect(await messageRow(id)).toMatchObject({ status: "failed" });
    expect((await alertsOf(hour)).map((a) => [a.status, a.cause.split("|").slice(0, 3).join("|")])).toEqual([
      ["failed", "email|cloudflare|raw"],
    ]);
  });

  it("alerts on failed, dead and a second retry; a push token gone for good is routine", async () => {
    const hour = "2026-03-06T12";
    const d = deps(answering(200), at(`${hour}:00:00.000Z`));
    // The rule itself: the FCM provider reports UNREGISTERED as deactivateToken.
    expect(
      alertStatusOf("failed", 1, {
        ok: false,
        retryable: false,
        error: "UNREGISTERED",
        deactivateToken: true,
      }),
    ).toBeNull();
    expect(alertStatusOf("failed", 1, { ok: false, retryable: false, error: "x" })).toBe("failed");
    expect(alertStatusOf("retrying", 1, { ok: false, retryable: true, error: "x" })).toBeNull();
    expect(alertStatusOf("retrying", 2, { ok: false, retryable: true, error: "x" })).toBe("retrying");
    expect(alertStatusOf("unknown", 1, { ok: false, retryable: true, error: "x", unknown: true })).toBe(
      "dead",
    );
    expect(await alertsOf(hour)).toEqual([]);
    expect(d.config.operatorEmails).toEqual([OPERATOR]);
  });

  it("a message the dead-letter queue gives up on alerts", async () => {
    const hour = "2026-03-07T13";
    const id = await rawEmail("y.alert7@example.com");
    await env.NOTIFY_DB.prepare(
      "UPDATE messages SET status = 'retrying', last_error = 'network error: reset' WHERE id = ?1",
    )
      .bind(id)
      .run();
    const d = deps(answering(503), at(`${hour}:00:00.000Z`));
    const batch = createMessageBatch<QueueBody>("warga-notify-dlq", [
      { id: "dlq-1", timestamp: new Date(0), attempts: 1, body: { messageId: id } },
    ]);
    await consumeDeadLetters(batch as MessageBatch<QueueBody>, d.db, d.now, async (row) => {
      await raiseAlert(
        { db: d.db, config: d.config, queue: env.NOTIFY_QUEUE, now: d.now },
        { message: row, provider: "resend", status: "dead", error: row.lastError ?? "" },
      );
    });
    expect(await messageRow(id)).toMatchObject({ status: "dead" });
    expect((await alertsOf(hour)).map((a) => [a.status, a.count])).toEqual([["dead", 1]]);
  });

  it("normalises an error to its cause", () => {
    expect(
      normaliseError("send_email: unknown recipient budi@example.com (id 01JD0000000000000000000000)"),
    ).toBe("send_email: unknown recipient <address> (id <id>)");
    expect(normaliseError("email API answered 429 rate_limit_exceeded")).toBe(
      "email API answered 429 rate_limit_exceeded",
    );
    expect(normaliseError("gateway refused 6281234567890 at 2026-03-01T01:00:00.000Z")).toBe(
      "gateway refused <n> at <time>",
    );
  });
});
