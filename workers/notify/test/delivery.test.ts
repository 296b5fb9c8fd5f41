import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { backoffSeconds } from "../src/queue/backoff";
import { fakeFetch, json, resendOk } from "./helpers/fakeFetch";
import { callJson, deliver, messageRow } from "./helpers/worker";

type Accepted = { messageIds: string[] };
type Detail = {
  status: string;
  attempts: number;
  lastError: string | null;
  attemptLog: {
    attempt: number;
    outcome: string;
    providerStatus: number | null;
    providerResponse: string | null;
    error: string | null;
    startedAt: string;
  }[];
};

let net: ReturnType<typeof fakeFetch> | undefined;
afterEach(() => net?.restore());

async function queueEmail(): Promise<string> {
  const res = await callJson<Accepted>("POST", "/v1/emails/raw", {
    body: { to: "a@example.com", subject: "x", text: "y" },
  });
  return res.body.messageIds[0] ?? "";
}

describe("backoff", () => {
  const policy = { baseSeconds: 10, maxSeconds: 900 };

  it("doubles per attempt with jitter between half and the full step, capped", () => {
    expect(backoffSeconds(1, policy, () => 0)).toBe(5);
    expect(backoffSeconds(1, policy, () => 1)).toBe(10);
    expect(backoffSeconds(3, policy, () => 0)).toBe(20);
    expect(backoffSeconds(3, policy, () => 1)).toBe(40);
    expect(backoffSeconds(10, policy, () => 1)).toBe(900);
  });

  it("waits at least as long as the provider's Retry-After", () => {
    expect(backoffSeconds(1, policy, () => 0, 120)).toBe(120);
  });
});

describe("retries through the queue", () => {
  it("retries a 5xx with exponential, jittered delay and logs every attempt", async () => {
    net = fakeFetch({ "api.resend.com": () => json({ name: "internal_server_error" }, 500) });
    const id = await queueEmail();
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const result = await deliver([id], { attempts: attempt });
      expect(result.explicitAcks).toEqual([]);
      expect(result.retryMessages).toHaveLength(1);
      delays.push(result.retryMessages[0]?.delaySeconds ?? -1);
    }
    // base 10 s (wrangler.toml): attempt n waits between 10·2^(n-1)/2 and 10·2^(n-1).
    expect(delays[0]).toBeGreaterThanOrEqual(5);
    expect(delays[0]).toBeLessThanOrEqual(10);
    expect(delays[1]).toBeGreaterThanOrEqual(10);
    expect(delays[1]).toBeLessThanOrEqual(20);
    expect(delays[2]).toBeGreaterThanOrEqual(20);
    expect(delays[2]).toBeLessThanOrEqual(40);

    const detail = await callJson<Detail>("GET", `/v1/messages/${id}`);
    expect(detail.body.status).toBe("retrying");
    expect(detail.body.attempts).toBe(3);
    expect(detail.body.attemptLog.map((a) => [a.attempt, a.outcome, a.providerStatus])).toEqual([
      [1, "retrying", 500],
      [2, "retrying", 500],
      [3, "retrying", 500],
    ]);
    expect(detail.body.attemptLog[0]?.providerResponse).toContain("internal_server_error");
    expect(detail.body.attemptLog[0]?.error).toBe("email API answered 500 internal_server_error");
  });

  it("honours Retry-After on 429 and retries network errors", async () => {
    net = fakeFetch({
      "api.resend.com": (_, i) => {
        if (i === 0) {
          return json({ name: "rate_limit_exceeded" }, 429, { "retry-after": "120" });
        }
        throw new TypeError("connection reset");
      },
    });
    const id = await queueEmail();
    expect((await deliver([id])).retryMessages[0]?.delaySeconds).toBeGreaterThanOrEqual(120);
    const second = await deliver([id], { attempts: 2 });
    expect(second.retryMessages).toHaveLength(1);
    expect(await messageRow(id)).toMatchObject({
      status: "retrying",
      last_error: "network error: connection reset",
    });
  });

  it("recovers after transient failures and ends sent once", async () => {
    net = fakeFetch({ "api.resend.com": (_, i) => (i < 2 ? json({}, 503) : resendOk()) });
    const id = await queueEmail();
    await deliver([id], { attempts: 1 });
    await deliver([id], { attempts: 2 });
    const third = await deliver([id], { attempts: 3 });
    expect(third.explicitAcks).toHaveLength(1);
    expect(await messageRow(id)).toMatchObject({ status: "sent", attempts: 3 });
  });

  it("marks the message dead on the 6th failed attempt and hands it to the dead-letter queue", async () => {
    net = fakeFetch({ "api.resend.com": () => json({}, 502) });
    const id = await queueEmail();
    for (let attempt = 1; attempt <= 5; attempt++) {
      await deliver([id], { attempts: attempt });
    }
    const last = await deliver([id], { attempts: 6 });
    // Retrying on the queue's last allowed attempt is what moves it to the dead-letter queue.
    expect(last.retryMessages).toHaveLength(1);
    expect(last.explicitAcks).toEqual([]);
    expect(net.to("api.resend.com")).toHaveLength(6);
    const detail = await callJson<Detail>("GET", `/v1/messages/${id}`);
    expect(detail.body.status).toBe("dead");
    expect(detail.body.attemptLog).toHaveLength(6);
    expect(detail.body.attemptLog.at(-1)?.outcome).toBe("dead");

    const dlq = await deliver([id], { queue: "warga-notify-dlq" });
    expect(dlq.explicitAcks).toHaveLength(1);
    expect(await messageRow(id)).toMatchObject({ status: "dead" });
  });

  it("dead-letter consumer marks a message dead when the main consumer never did", async () => {
    net = fakeFetch({ "api.resend.com": () => json({}, 500) });
    const id = await queueEmail();
    await deliver([id]);
    expect(await messageRow(id)).toMatchObject({ status: "retrying" });
    await deliver([id], { queue: "warga-notify-dlq" });
    expect(await messageRow(id)).toMatchObject({ status: "dead" });
  });

  it("never sends a message again when the queue redelivers it after it was sent", async () => {
    net = fakeFetch({ "api.resend.com": () => resendOk() });
    const id = await queueEmail();
    await deliver([id]);
    const again = await deliver([id], { attempts: 2 });
    expect(again.explicitAcks).toHaveLength(1);
    expect(net.to("api.resend.com")).toHaveLength(1);
    expect(await messageRow(id)).toMatchObject({ status: "sent", attempts: 1 });
  });

  it("delivers once when the same queue message arrives twice at the same time", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    net = fakeFetch({
      "api.resend.com": async () => {
        await gate;
        return resendOk();
      },
    });
    const id = await queueEmail();
    const first = deliver([id]);
    const second = deliver([id]);
    // The provider answers once one delivery has finished without it: the other holds the message then.
    // (Were both to send, neither would finish and the test would time out.)
    void Promise.race([first, second]).then(release);
    const results = await Promise.all([first, second]);
    expect(net.to("api.resend.com")).toHaveLength(1);
    // The loser sees a leased `sending` row and comes back later instead of sending.
    expect(results.flatMap((r) => r.retryMessages)).toHaveLength(1);
    expect(await messageRow(id)).toMatchObject({ status: "sent", attempts: 1 });
  });

  it("takes over a message whose consumer died mid-send once the lease expires", async () => {
    net = fakeFetch({ "api.resend.com": () => resendOk() });
    const id = await queueEmail();
    await env.NOTIFY_DB.prepare(
      "UPDATE messages SET status = 'sending', lease_until = '2000-01-01T00:00:00.000Z' WHERE id = ?1",
    )
      .bind(id)
      .run();
    await deliver([id], { attempts: 2 });
    expect(await messageRow(id)).toMatchObject({ status: "sent" });
  });

  it("acks a queue message whose log row does not exist", async () => {
    expect((await deliver(["01JD00000000000000000NOPE0"])).explicitAcks).toHaveLength(1);
  });
});

describe("POST /v1/messages/:id/retry", () => {
  it("queues a dead message again and refuses anything else", async () => {
    net = fakeFetch({ "api.resend.com": (_, i) => (i < 6 ? json({}, 500) : resendOk()) });
    const id = await queueEmail();
    expect((await callJson("POST", `/v1/messages/${id}/retry`)).status).toBe(409);
    for (let attempt = 1; attempt <= 6; attempt++) {
      await deliver([id], { attempts: attempt });
    }
    const retried = await callJson<Accepted>("POST", `/v1/messages/${id}/retry`);
    expect(retried.status).toBe(202);
    expect(retried.body).toEqual({ messageIds: [id] });
    expect(await messageRow(id)).toMatchObject({ status: "queued" });
    // A fresh queue message starts counting at 1 again.
    await deliver([id], { attempts: 1 });
    expect(await messageRow(id)).toMatchObject({ status: "sent", attempts: 7 });

    const conflict = await callJson("POST", `/v1/messages/${id}/retry`);
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({ code: "message_not_dead" });
    expect((await callJson("POST", "/v1/messages/01JD00000000000000000NOPE0/retry")).status).toBe(404);
  });

  it("queues a failed message again (a permanent refusal the operator may have had fixed)", async () => {
    net = fakeFetch({
      "api.resend.com": (_, i) => (i === 0 ? json({ name: "validation_error" }, 422) : resendOk()),
    });
    const id = await queueEmail();
    await deliver([id], { attempts: 1 });
    expect(await messageRow(id)).toMatchObject({ status: "failed" });

    const retried = await callJson<Accepted>("POST", `/v1/messages/${id}/retry`);
    expect(retried.status).toBe(202);
    expect(await messageRow(id)).toMatchObject({ status: "queued" });
    // Pressed twice: the second finds it queued, not failed, and queues nothing more.
    const twice = await callJson("POST", `/v1/messages/${id}/retry`);
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ code: "message_not_dead" });
    await deliver([id], { attempts: 1 });
    expect(await messageRow(id)).toMatchObject({ status: "sent" });
  });
});
