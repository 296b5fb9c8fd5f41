import type { QueueBody } from "../../src/queue/body";

// mulberry32: small and seedable. Math.random would make a failing run impossible to replay.
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

// One number per key tuple rather than per call in arrival order: the provider's answer to a message's
// n-th call must not depend on how the consumer's concurrent work happened to interleave.
export function keyedDraw(seed: number, ...keys: number[]): number {
  let h = seed >>> 0;
  for (const key of keys) {
    h = Math.imul(h ^ (key >>> 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return mulberry32(h)();
}

export class IsolateDied extends Error {
  override name = "IsolateDied";
}

// Stands for the consumer's isolate. Once it dies nothing new leaves it: no query, no provider call.
// Work already on the wire (a D1 statement sent, a provider request received) still completes, as it would.
export class Isolate {
  dead = false;
}

// D1 as seen from an isolate that may die: statements issued after death fail instead of reaching D1.
export function mortalD1(d1: D1Database, isolate: Isolate): D1Database {
  const unwrapped = new WeakMap<object, D1PreparedStatement>();
  const refuse = () => Promise.reject(new IsolateDied("isolate died"));
  const wrap = (statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, prop) {
        const value: unknown = Reflect.get(target, prop, target);
        if (typeof value !== "function") {
          return value;
        }
        if (prop === "bind") {
          return (...args: unknown[]) => wrap(value.apply(target, args) as D1PreparedStatement);
        }
        return (...args: unknown[]) => (isolate.dead ? refuse() : value.apply(target, args));
      },
    });
    unwrapped.set(proxy, statement);
    return proxy;
  };
  return new Proxy(d1, {
    get(target, prop) {
      if (prop === "prepare") {
        return (query: string) => wrap(target.prepare(query));
      }
      if (prop === "batch") {
        return (statements: D1PreparedStatement[]) =>
          isolate.dead ? refuse() : target.batch(statements.map((s) => unwrapped.get(s) ?? s));
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

export interface QueueCopy {
  qid: string;
  messageId: string;
  attempts: number;
  dueAt: number;
  seq: number;
}

export interface Verdict {
  acked: boolean;
  retried: boolean;
  delaySeconds?: number;
}

// A batch as the platform hands it over, recording each message's ack/retry: the test plays the queue.
export function fakeBatch(queue: string, copies: QueueCopy[], at: number) {
  const verdicts: Verdict[] = copies.map(() => ({ acked: false, retried: false }));
  const messages: Message<QueueBody>[] = copies.map((copy, i) => {
    const verdict = verdicts[i] as Verdict;
    return {
      id: copy.qid,
      timestamp: new Date(at),
      attempts: copy.attempts,
      body: { messageId: copy.messageId },
      ack: () => {
        verdict.acked = true;
      },
      retry: (options?: QueueRetryOptions) => {
        verdict.retried = true;
        verdict.delaySeconds = options?.delaySeconds;
      },
    };
  });
  const batch: MessageBatch<QueueBody> = {
    queue,
    messages,
    metadata: { metrics: { backlogCount: 0, backlogBytes: 0 } },
    ackAll: () => {
      throw new Error("the consumer settles messages one by one");
    },
    retryAll: () => {
      throw new Error("the consumer settles messages one by one");
    },
  };
  return { batch, verdicts };
}
