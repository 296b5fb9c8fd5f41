import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { createDb } from "../../src/db/client";
import { loadConfig } from "../../src/env";
import { buildProviders } from "../../src/providers";
import { type ConsumerDeps, consumeBatch, LEASE_MS, processMessage } from "../../src/queue/consumer";
import { consumeDeadLetters, DEAD_LETTER_QUEUE } from "../../src/queue/deadLetter";
import { FakeResend, type ProviderCall } from "./fakeResend";
import { fakeBatch, Isolate, keyedDraw, mortalD1, mulberry32, type QueueCopy, type Verdict } from "./faults";
import { adopted, attemptRows, messageRows } from "./queueRows";
import { callJson, testEnv } from "./worker";

// The test plays the queue (at-least-once, max_batch_size 10, max_retries 5 then the dead-letter queue)
// on a virtual clock, so hours of backoff take no wall-clock time. Everything random is seeded.
const SEED = 0x5eed_0012;
const MAIN_QUEUE = "warga-notify";
const BATCH_SIZE = 10;
// A message held by another consumer's live lease comes back after this.
const LEASE_SECONDS = LEASE_MS / 1000;
export const FINAL = new Set(["sent", "failed", "dead"]);
const START = Date.parse("2026-05-12T01:00:00.000Z");

export interface Scenario {
  name: string;
  messages: number;
  transientRate: number;
  refusedRate: number;
  hopeless: number;
  duplicateRate: number;
  crashEvery: number;
  honoursIdempotencyKey: boolean;
  // Issue 34: slow answers (past the deadline, past the lease), 409 concurrent_idempotent_requests, and
  // takeovers by a second consumer while a call is open.
  slowRate?: number;
  concurrentRate?: number;
  rivalRate?: number;
}

export const config = loadConfig(testEnv());
export const MAX_ATTEMPTS = config.maxAttempts;

// Resend's 409 concurrent_idempotent_requests is "try again later"; its other 4xx answers are final.
export const transient = (c: ProviderCall) =>
  c.seen === null || c.seen === 429 || c.seen >= 500 || c.shape === "concurrent_409";
export const permanent = (c: ProviderCall) =>
  c.seen !== null && c.seen >= 400 && c.seen < 500 && !transient(c);

function backoffRange(attempt: number, retryAfter = 0): [number, number] {
  const step = Math.min(config.retryMaxSeconds, config.retryBaseSeconds * 2 ** (attempt - 1));
  return [Math.ceil(Math.max(step / 2, retryAfter)), Math.ceil(Math.max(step, retryAfter))];
}

const inBackoff = (delay: number, attempt: number, call: ProviderCall) => {
  const [lo, hi] = backoffRange(attempt, call.retryAfter);
  return delay >= lo && delay <= hi;
};

async function enqueue(recipients: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < recipients.length; i += 50) {
    const res = await callJson<{ messageIds: string[] }>("POST", "/v1/emails/raw", {
      body: {
        to: recipients.slice(i, i + 50),
        subject: "Iuran kebersihan Mei",
        text: "Tagihan iuran bulan ini.",
      },
    });
    expect(res.status).toBe(202);
    ids.push(...res.body.messageIds);
  }
  return ids;
}

export async function runScenario(s: Scenario) {
  const recipients = Array.from(
    { length: s.messages },
    (_, i) => `${s.name}-${String(i).padStart(3, "0")}@example.com`,
  );
  const indexOf = new Map(recipients.map((r, i) => [r, i]));
  const byDraw = recipients
    .map((r, i) => ({ r, u: keyedDraw(SEED, i, 0xfa11) }))
    .sort((a, b) => a.u - b.u)
    .map((x) => x.r);
  const refusedCount = Math.round(s.messages * s.refusedRate);
  const refused = new Map(byDraw.slice(0, refusedCount).map((r, i) => [r, i % 2 === 0 ? 400 : 403] as const));
  const hopeless = new Set(byDraw.slice(refusedCount, refusedCount + s.hopeless));

  let isolate = new Isolate();
  let clock = START;
  let stepStart = START;
  let stepCopies: QueueCopy[] = [];
  // The test plays the timer of each attempt's deadline: a slow call lets it fire, which moves the
  // virtual clock to the step's start plus the deadline (never past the lease), and nothing waits.
  const timers = new WeakMap<AbortSignal, AbortController>();
  const deadline = () => {
    const controller = new AbortController();
    timers.set(controller.signal, controller);
    return controller.signal;
  };
  const fake: FakeResend = new FakeResend({
    seed: SEED,
    transientRate: s.transientRate,
    indexOf,
    refused,
    hopeless,
    isolate: () => isolate,
    honoursIdempotencyKey: s.honoursIdempotencyKey,
    slowRate: s.slowRate,
    concurrentRate: s.concurrentRate,
    rivalRate: s.rivalRate,
    now: () => clock,
    expire: (signal) => {
      clock = Math.max(clock, stepStart + config.providerTimeoutMs);
      stats.timeouts += 1;
      timers.get(signal)?.abort(new DOMException("The operation timed out.", "TimeoutError"));
    },
    // Another delivery of the same queue message, by a consumer whose clock is past the first claim's
    // lease: it takes the message over while the first call is still open.
    rival: async (messageId) => {
      const copy = stepCopies.find((c) => c.messageId === messageId);
      if (!copy) {
        throw new Error(`no queue copy of ${messageId} in this step`);
      }
      const at = clock + LEASE_MS + 1000;
      const verdict = await processMessage(messageId, copy.attempts, {
        db: createDb(env.NOTIFY_DB),
        config,
        providers,
        now: () => new Date(at),
        random: jitter,
        deadline,
      });
      stats.rivals += 1;
      const calls = (fake.calls.get(messageId) ?? []).filter((c) => c.rival && c.step === stats.steps);
      const call = calls[0];
      const expected =
        copy.attempts >= MAX_ATTEMPTS
          ? verdict.action === "retry" && verdict.delaySeconds === 0
          : verdict.action === "retry" &&
            call !== undefined &&
            inBackoff(verdict.delaySeconds, copy.attempts, call);
      if (calls.length !== 1 || call?.shape !== "concurrent_409" || !expected) {
        problems.push(
          `${messageId}: rival took over with ${JSON.stringify(verdict)} after ${calls.map((c) => c.seen)}`,
        );
      }
      if (verdict.action === "retry") {
        requeue(copy, verdict.delaySeconds > 0 ? verdict.delaySeconds + (at - clock) / 1000 : undefined);
      }
    },
  });
  const providers = buildProviders(config, fake.fetch);
  const queueRng = mulberry32(SEED);
  const jitter = mulberry32(SEED ^ 0x9e37_79b9);
  const deps = (): ConsumerDeps => ({
    db: createDb(mortalD1(env.NOTIFY_DB, isolate)),
    config,
    providers,
    now: () => new Date(clock),
    random: jitter,
    deadline,
  });

  const ids = await enqueue(recipients);
  const recipientOf = new Map(ids.map((id, i) => [id, recipients[i] as string]));
  let seq = 0;
  const pending: QueueCopy[] = ids.map((messageId) => ({
    qid: `q-${messageId}`,
    messageId,
    attempts: 1,
    dueAt: clock,
    seq: seq++,
  }));
  const dlq: QueueCopy[] = [];
  const stats = {
    steps: 0,
    deliveries: 0,
    duplicatesSameBatch: 0,
    duplicatesParallel: 0,
    duplicatesLater: 0,
    held: 0,
    backoff: 0,
    deadRetries: 0,
    crashes: 0,
    crashesMidSend: 0,
    deadLettered: 0,
    timeouts: 0,
    rivals: 0,
  };
  const interrupted = new Map<string, number>();
  const problems: string[] = [];

  // What the platform does with a verdict: a retry comes back later with one more attempt, and a retry on
  // the last attempt goes to the dead-letter queue instead.
  const requeue = (copy: QueueCopy, delaySeconds = 0) => {
    if (copy.attempts >= MAX_ATTEMPTS) {
      dlq.push(copy);
    } else {
      pending.push({ ...copy, attempts: copy.attempts + 1, dueAt: clock + delaySeconds * 1000, seq: seq++ });
    }
  };

  while (pending.length > 0 || dlq.length > 0) {
    stats.steps += 1;
    if (stats.steps > 5000) {
      throw new Error("the queue never drained");
    }
    // Time passes between invocations, so a lease set in one step has a later step to expire in.
    clock += 1000;
    if (dlq.length > 0) {
      const copies = dlq.splice(0, BATCH_SIZE);
      const { batch, verdicts } = fakeBatch(DEAD_LETTER_QUEUE, copies, clock);
      await consumeDeadLetters(batch, createDb(env.NOTIFY_DB), () => new Date(clock));
      expect(verdicts.every((v) => v.acked && !v.retried)).toBe(true);
      stats.deadLettered += copies.length;
      continue;
    }

    pending.sort((a, b) => a.dueAt - b.dueAt || a.seq - b.seq);
    clock = Math.max(clock, pending[0]?.dueAt ?? clock);
    let take = 0;
    while (take < pending.length && take < BATCH_SIZE && (pending[take]?.dueAt ?? Infinity) <= clock) {
      take += 1;
    }
    const due = pending.splice(0, take);
    const crash = stats.steps % s.crashEvery === 0;
    const first = [...due];
    const second: QueueCopy[] = [];
    for (const copy of due) {
      if (queueRng() >= s.duplicateRate) {
        continue;
      }
      const mode = queueRng();
      if (mode < 1 / 3 || crash) {
        first.push({ ...copy });
        stats.duplicatesSameBatch += 1;
      } else if (mode < 2 / 3) {
        second.push({ ...copy });
        stats.duplicatesParallel += 1;
      } else {
        pending.push({ ...copy, dueAt: clock + Math.floor(queueRng() * 60_000), seq: seq++ });
        stats.duplicatesLater += 1;
      }
    }
    const copies = [...first, ...second];
    stats.deliveries += copies.length;
    const stepIds = [...new Set(copies.map((c) => c.messageId))];
    const before = await messageRows(stepIds);
    const loggedBefore = crash ? await attemptRows(stepIds) : null;

    isolate = new Isolate();
    fake.step = stats.steps;
    fake.callsThisStep = 0;
    fake.crashAtCall = crash ? 1 + Math.floor(queueRng() * first.length) : null;
    stepStart = clock;
    stepCopies = copies;
    const batches = [first, second].filter((b) => b.length > 0).map((b) => fakeBatch(MAIN_QUEUE, b, clock));
    const stepDeps = deps();
    await Promise.all(batches.map(({ batch }) => consumeBatch(batch, stepDeps)));
    // A rival's call is checked where the rival runs; each copy here answers for its own calls.
    const callsNow = (id: string): ProviderCall[] =>
      (fake.calls.get(id) ?? []).filter((c) => c.step === stats.steps && !c.rival);

    if (crash) {
      stats.crashes += 1;
      if (isolate.dead) {
        stats.crashesMidSend += 1;
      }
      // Otherwise it dies after the work but before the acks reach the queue: the same redelivery.
      isolate.dead = true;
      const after = await messageRows(stepIds);
      const loggedAfter = await attemptRows(stepIds);
      for (const id of stepIds) {
        const claims = (after.get(id)?.attempts ?? 0) - (before.get(id)?.attempts ?? 0);
        const logged = (loggedAfter.get(id)?.length ?? 0) - (loggedBefore?.get(id)?.length ?? 0);
        if (claims > logged) {
          interrupted.set(id, (interrupted.get(id) ?? 0) + claims - logged);
        }
        // Claims of one message are sequential, so the calls whose attempt never reached the log are its last.
        const calls = callsNow(id);
        for (const call of calls.slice(logged)) {
          call.unlogged = true;
        }
        if (calls.some((c) => c.lost && !c.unlogged)) {
          problems.push(`${id}: the call that died with the isolate is in the log`);
        }
      }
      for (const copy of first) {
        requeue(copy);
      }
      continue;
    }

    const instances = new Map<string, number>();
    for (const c of copies) {
      instances.set(c.messageId, (instances.get(c.messageId) ?? 0) + 1);
    }
    const verdicts = batches.flatMap((b) => b.verdicts);
    copies.forEach((copy, i) => {
      const verdict = verdicts[i] as Verdict;
      const id = copy.messageId;
      const row = before.get(id);
      const calls = callsNow(id);
      const alone = instances.get(id) === 1;
      const where = `${id} (attempt ${copy.attempts}, step ${stats.steps})`;
      if (verdict.acked === verdict.retried) {
        problems.push(`${where}: acked ${verdict.acked}, retried ${verdict.retried}`);
        return;
      }
      // As the step began: a slow call's deadline moves the clock within the step, so a lease that was
      // live then may have run out by the time a later copy of the step came to it (and was claimed).
      const leaseLive =
        row?.status === "sending" &&
        row.lease_until !== null &&
        Date.parse(row.lease_until) > stepStart &&
        (calls.length === 0 || Date.parse(row.lease_until) > clock);
      if (verdict.acked) {
        // A final row is acked unsent. Otherwise this delivery (or, for a duplicate, its twin) settled it.
        // A message whose accepted call answered after a takeover is finished from the log, uncalled.
        const adoptable = (fake.calls.get(id) ?? []).some((c) => c.superseded);
        const settled = FINAL.has(row?.status ?? "")
          ? calls.length === 0
          : alone
            ? (calls.length === 1 && calls.some((c) => c.seen === 200 || permanent(c))) ||
              (calls.length === 0 && adoptable)
            : calls.length > 0 || adoptable;
        if (!settled) {
          problems.push(`${where}: acked from ${row?.status} after ${calls.map((c) => c.seen)}`);
        }
        return;
      }
      const delay = verdict.delaySeconds;
      if (delay === undefined) {
        // The only undelayed retry is the one that hands the message to the dead-letter queue.
        stats.deadRetries += 1;
        if (
          copy.attempts < MAX_ATTEMPTS ||
          (alone && !(calls.length === 1 && transient(calls[0] as ProviderCall)))
        ) {
          problems.push(`${where}: undelayed retry after ${calls.map((c) => c.seen)}`);
        }
      } else if (alone && leaseLive) {
        stats.held += 1;
        if (delay !== LEASE_SECONDS || calls.length > 0) {
          problems.push(`${where}: held with delay ${delay} after ${calls.length} calls`);
        }
      } else if (alone) {
        stats.backoff += 1;
        const call = calls[0];
        const fits = call && transient(call) && inBackoff(delay, copy.attempts, call);
        if (calls.length !== 1 || !fits || copy.attempts >= MAX_ATTEMPTS) {
          problems.push(
            `${where}: retry in ${delay}s after ${calls.map((c) => `${c.seen}/${c.retryAfter}`)}`,
          );
        }
      } else if (delay === LEASE_SECONDS) {
        stats.held += 1;
      } else {
        stats.backoff += 1;
        if (!calls.some((c) => transient(c) && inBackoff(delay, copy.attempts, c))) {
          problems.push(`${where}: duplicate retried in ${delay}s after ${calls.map((c) => c.seen)}`);
        }
      }
      requeue(copy, delay);
    });
  }

  return {
    ids,
    recipientOf,
    refused,
    hopeless,
    fake,
    stats,
    interrupted,
    problems,
    finalRows: await messageRows(ids),
    log: await attemptRows(ids),
  };
}

export { adopted };

export type Run = Awaited<ReturnType<typeof runScenario>>;
