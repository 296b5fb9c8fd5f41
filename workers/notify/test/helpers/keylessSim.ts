import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { createDb } from "../../src/db/client";
import { type Config, loadConfig } from "../../src/env";
import { buildProviders } from "../../src/providers";
import type { FetchFn } from "../../src/providers/types";
import { consumeBatch, LEASE_MS, processMessage, type Verdict } from "../../src/queue/consumer";
import { consumeDeadLetters, DEAD_LETTER_QUEUE } from "../../src/queue/deadLetter";
import { json } from "./fakeFetch";
import { fakeBatch, keyedDraw, mulberry32, type QueueCopy } from "./faults";
import { callJson, type EnvOverrides, testEnv } from "./worker";

// Plays the queue and the providers without an idempotency key for faults.keyless.test.ts (issue 34).

export type Kind = "gateway" | "cloud" | "fcm";
export type Shape =
  | "accept"
  | "throttle"
  | "server"
  | "permanent"
  | "slow_unsent"
  | "slow_accepted"
  | "slow_past_lease"
  | "takeover";

interface Call {
  recipient: string;
  shape: Shape;
  seen: number | null;
  accepted: boolean;
  timedOut: boolean;
  rival: boolean;
  superseded: boolean;
  retryAfter?: number;
}

const SEED_BASE = 0x5eed_0034;
const START = Date.parse("2026-06-01T01:00:00.000Z");
const BATCH_SIZE = 10;
const SLOW_ANSWER_MS = { slow_unsent: 40_000, slow_accepted: 40_000, slow_past_lease: 130_000 };

const HOSTS: Record<Kind, string> = {
  gateway: "api.fonnte.com",
  cloud: "graph.facebook.com",
  fcm: "fcm.googleapis.com",
};

function envFor(kind: Kind, privatePem: string): EnvOverrides {
  switch (kind) {
    case "gateway":
      return { WHATSAPP_PROVIDER: "gateway" };
    case "cloud":
      return {
        WHATSAPP_PROVIDER: "cloud",
        WHATSAPP_CLOUD_PHONE_NUMBER_ID: "106540352242922",
        WHATSAPP_CLOUD_TOKEN: "EAAG-test",
      };
    case "fcm":
      return {
        FCM_SERVICE_ACCOUNT: JSON.stringify({
          type: "service_account",
          project_id: "warga-test",
          private_key_id: "keyless-suite",
          private_key: privatePem,
          client_email: "notify-keyless@warga-test.iam.gserviceaccount.com",
          token_uri: "https://oauth2.googleapis.com/token",
        }),
      };
  }
}

// Each provider's documented answers for each shape.
function answer(kind: Kind, shape: "accept" | "throttle" | "server" | "permanent", n: number, call: Call) {
  const graph = (code: number, status: number, headers: Record<string, string> = {}) =>
    json(
      { error: { message: `(#${code})`, type: "OAuthException", code, fbtrace_id: "AbC" } },
      status,
      headers,
    );
  const fcm = (status: number, code: string, headers: Record<string, string> = {}) =>
    json(
      {
        error: {
          code: status,
          status: code,
          details: [{ "@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", errorCode: code }],
        },
      },
      status,
      headers,
    );
  switch (`${kind}:${shape}`) {
    case "gateway:accept":
      return json({ detail: "success! message in queue", id: [String(80_000_000 + n)], status: true });
    case "gateway:throttle":
      call.retryAfter = 30;
      return json({ status: false, reason: "rate limit" }, 429, { "retry-after": "30" });
    case "gateway:server":
      // The gateway's own upstream timed out before it queued anything.
      return new Response("<html>504 Gateway Time-out</html>", { status: 504 });
    case "gateway:permanent":
      return json({ status: false, reason: "invalid target" });
    case "cloud:accept":
      return json({ messaging_product: "whatsapp", messages: [{ id: `wamid.HBgN${n}` }] });
    case "cloud:throttle":
      // 131056: one business number to one user, too often (pair rate limit).
      return graph(n % 2 === 0 ? 130429 : 131056, 429);
    case "cloud:server":
      return graph(131000, 500);
    case "cloud:permanent":
      return graph(131026, 400);
    case "fcm:accept":
      return json({ name: `projects/warga-test/messages/0:${n}` });
    case "fcm:throttle":
      call.retryAfter = 60;
      return fcm(429, "QUOTA_EXCEEDED", { "retry-after": "20" });
    case "fcm:server":
      if (n % 2 === 0) {
        call.retryAfter = 45;
        return fcm(503, "UNAVAILABLE", { "retry-after": "45" });
      }
      return fcm(500, "INTERNAL");
    case "fcm:permanent":
      return n % 2 === 0 ? fcm(404, "UNREGISTERED") : fcm(400, "INVALID_ARGUMENT");
  }
  throw new Error(`no answer for ${kind}:${shape}`);
}

function recipientOf(kind: Kind, url: string, init: RequestInit | undefined): string {
  if (kind === "gateway") {
    return String((init?.body as FormData | undefined)?.get("target"));
  }
  const body = JSON.parse(String(init?.body)) as { to?: string; message?: { token: string } };
  return kind === "cloud" ? (body.to ?? "") : (body.message?.token ?? url);
}

export async function runKeyless(kind: Kind, count: number, privatePem: string) {
  // Each provider meets its own draw of faults (high bits: the keys, recipient indexes, use the low ones).
  const SEED = (SEED_BASE ^ Math.imul(kind === "gateway" ? 1 : kind === "cloud" ? 2 : 3, 0x9e37_79b9)) >>> 0;
  const overrides = envFor(kind, privatePem);
  const config: Config = loadConfig(testEnv(overrides));
  const recipients = Array.from({ length: count }, (_, i) =>
    kind === "fcm" ? `tok-keyless-${i}` : `62812${String(700_000 + i).padStart(7, "0")}`,
  );
  const indexOf = new Map(recipients.map((r, i) => [r, i]));
  if (kind === "fcm") {
    for (const token of recipients) {
      const res = await callJson("POST", "/v1/devices", {
        body: { userId: `u-${token}`, tenant: "rt07", platform: "android", token },
      });
      expect(res.status).toBe(201);
    }
  }
  const ids: string[] = [];
  if (kind === "fcm") {
    const res = await callJson<{ messageIds: string[] }>("POST", "/v1/push/send", {
      body: {
        tokens: recipients,
        title: "Kerja bakti",
        body: "Minggu pagi",
        data: { screen: "a", id: "1" },
      },
      env: overrides,
    });
    ids.push(...res.body.messageIds);
  } else {
    for (const to of recipients) {
      const res = await callJson<{ messageIds: string[] }>("POST", "/v1/whatsapp/send", {
        body: { to, message: "Iuran kebersihan Juni sudah bisa dibayar." },
        env: overrides,
      });
      ids.push(...res.body.messageIds);
    }
  }
  expect(ids).toHaveLength(count);
  const idOf = new Map<string, string>();
  for (const id of ids) {
    const row = await env.NOTIFY_DB.prepare("SELECT recipient FROM messages WHERE id = ?1")
      .bind(id)
      .first<{ recipient: string }>();
    idOf.set(row?.recipient ?? "", id);
  }

  let clock = START;
  let stepStart = START;
  let current: QueueCopy[] = [];
  const calls = new Map<string, Call[]>();
  const accepted = new Map<string, number>();
  const busy = new Set<string>();
  const problems: string[] = [];
  const stats = { timeouts: 0, takeovers: 0, deadLettered: 0, steps: 0, retryAfterChecked: 0 };
  const timers = new WeakMap<AbortSignal, AbortController>();
  const deadline = () => {
    const controller = new AbortController();
    timers.set(controller.signal, controller);
    return controller.signal;
  };
  const jitter = mulberry32(SEED);
  let pending: QueueCopy[] = ids.map((messageId, i) => ({
    qid: `q-${messageId}`,
    messageId,
    attempts: 1,
    dueAt: clock,
    seq: i,
  }));
  let seq = pending.length;
  const dlq: QueueCopy[] = [];
  const requeue = (copy: QueueCopy, delaySeconds: number | undefined, from = clock) => {
    if (copy.attempts >= config.maxAttempts) {
      dlq.push(copy);
    } else {
      pending.push({
        ...copy,
        attempts: copy.attempts + 1,
        dueAt: from + (delaySeconds ?? 0) * 1000,
        seq: seq++,
      });
    }
  };

  const shapeOf = (recipient: string, callIndex: number): Shape => {
    const u = keyedDraw(SEED, indexOf.get(recipient) ?? -1, callIndex);
    const shapes: [Shape, number][] = [
      ["throttle", 0.1],
      ["server", 0.1],
      ["permanent", 0.05],
      ["slow_unsent", 0.03],
      ["slow_accepted", 0.03],
      ["slow_past_lease", 0.03],
      ["takeover", 0.04],
    ];
    let edge = 0;
    for (const [shape, p] of shapes) {
      edge += p;
      if (u < edge) {
        return shape;
      }
    }
    return "accept";
  };

  const fetchFn: FetchFn = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const host = new URL(url).host;
    if (host === "oauth2.googleapis.com") {
      return json({ access_token: "ya29.keyless", expires_in: 3599, token_type: "Bearer" });
    }
    if (host !== HOSTS[kind]) {
      throw new Error(`unexpected outbound fetch to ${url}`);
    }
    const recipient = recipientOf(kind, url, init);
    const list = calls.get(recipient) ?? [];
    calls.set(recipient, list);
    const n = (indexOf.get(recipient) ?? 0) * 100 + list.length;
    const rival = busy.has(recipient);
    const shape = rival ? "server" : shapeOf(recipient, list.length);
    const call: Call = {
      recipient,
      shape,
      seen: null,
      accepted: false,
      timedOut: false,
      rival,
      superseded: false,
    };
    list.push(call);
    const accept = () => {
      call.accepted = true;
      accepted.set(recipient, (accepted.get(recipient) ?? 0) + 1);
    };
    if (shape === "slow_unsent" || shape === "slow_accepted" || shape === "slow_past_lease") {
      const signal = init?.signal;
      if (!signal) {
        throw new Error("a provider call without the attempt's deadline");
      }
      if (shape !== "slow_unsent") {
        // The provider acts; its answer would come SLOW_ANSWER_MS later, after our deadline.
        accept();
      }
      expect(SLOW_ANSWER_MS[shape]).toBeGreaterThan(config.providerTimeoutMs);
      clock = Math.max(clock, stepStart + config.providerTimeoutMs);
      stats.timeouts += 1;
      call.timedOut = true;
      timers.get(signal)?.abort(new DOMException("The operation timed out.", "TimeoutError"));
      throw signal.reason;
    }
    if (shape === "takeover") {
      accept();
      busy.add(recipient);
      try {
        await takeOver(idOf.get(recipient) ?? "");
      } finally {
        busy.delete(recipient);
      }
      call.superseded = true;
      const response = answer(kind, "accept", n, call);
      call.seen = response.status;
      return response;
    }
    const response = answer(kind, shape, n, call);
    if (shape === "accept") {
      accept();
    }
    call.seen = response.status;
    return response;
  };
  const providers = buildProviders(config, fetchFn);
  const deps = { db: createDb(env.NOTIFY_DB), config, providers, random: jitter, deadline };

  // A second consumer, its clock past the first claim's lease, takes the message over while the first
  // call is open. The provider, still busy with the first request, answers it 503.
  async function takeOver(messageId: string) {
    const copy = current.find((c) => c.messageId === messageId);
    if (!copy) {
      throw new Error(`no queue copy of ${messageId}`);
    }
    const at = clock + LEASE_MS + 1000;
    const verdict: Verdict = await processMessage(messageId, copy.attempts, {
      ...deps,
      now: () => new Date(at),
    });
    stats.takeovers += 1;
    if (verdict.action !== "retry") {
      problems.push(`${messageId}: the rival's 503 ended ${JSON.stringify(verdict)}`);
      return;
    }
    requeue(copy, verdict.delaySeconds > 0 ? verdict.delaySeconds : undefined, at);
  }

  while (pending.length > 0 || dlq.length > 0) {
    stats.steps += 1;
    if (stats.steps > 3000) {
      throw new Error("the queue never drained");
    }
    clock += 1000;
    if (dlq.length > 0) {
      const { batch } = fakeBatch(DEAD_LETTER_QUEUE, dlq.splice(0, BATCH_SIZE), clock);
      stats.deadLettered += batch.messages.length;
      await consumeDeadLetters(batch, createDb(env.NOTIFY_DB), () => new Date(clock));
      continue;
    }
    pending.sort((a, b) => a.dueAt - b.dueAt || a.seq - b.seq);
    clock = Math.max(clock, pending[0]?.dueAt ?? clock);
    const due = pending.filter((c) => c.dueAt <= clock).slice(0, BATCH_SIZE);
    pending = pending.filter((c) => !due.includes(c));
    stepStart = clock;
    current = due;
    const before = new Map(
      due.map((c) => [c.messageId, (calls.get(recipientFor(c.messageId)) ?? []).length]),
    );
    const { batch, verdicts } = fakeBatch("warga-notify", due, clock);
    await consumeBatch(batch, { ...deps, now: () => new Date(clock) });
    due.forEach((copy, i) => {
      const verdict = verdicts[i];
      if (!verdict || verdict.acked === verdict.retried) {
        problems.push(`${copy.messageId}: acked and retried, or neither`);
        return;
      }
      if (verdict.retried) {
        // Retry-After honoured: a throttled or overloaded answer's wait is the least delay asked for.
        const own = (calls.get(recipientFor(copy.messageId)) ?? []).slice(before.get(copy.messageId));
        const last = own.filter((c) => !c.rival).at(-1);
        if (last?.retryAfter !== undefined && copy.attempts < config.maxAttempts) {
          stats.retryAfterChecked += 1;
          if ((verdict.delaySeconds ?? 0) < last.retryAfter) {
            problems.push(
              `${copy.messageId}: retried in ${verdict.delaySeconds}s, asked ${last.retryAfter}s`,
            );
          }
        }
        requeue(copy, verdict.delaySeconds);
      }
    });
  }

  function recipientFor(messageId: string): string {
    return [...idOf.entries()].find(([, id]) => id === messageId)?.[0] ?? "";
  }

  const { results: rows } = await env.NOTIFY_DB.prepare(
    "SELECT id, recipient, status, attempts FROM messages WHERE id IN (SELECT value FROM json_each(?1))",
  )
    .bind(JSON.stringify(ids))
    .all<{ id: string; recipient: string; status: string; attempts: number }>();
  const { results: attempts } = await env.NOTIFY_DB.prepare(
    "SELECT message_id, attempt, outcome, provider_status, provider_response, error FROM message_attempts WHERE message_id IN (SELECT value FROM json_each(?1)) ORDER BY message_id, attempt",
  )
    .bind(JSON.stringify(ids))
    .all<{
      message_id: string;
      attempt: number;
      outcome: string;
      provider_status: number | null;
      provider_response: string | null;
      error: string | null;
    }>();
  return { kind, rows, attempts, calls, accepted, problems, stats, recipients };
}

export type KeylessRun = Awaited<ReturnType<typeof runKeyless>>;
