import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { tenantD1 } from "../helpers/d1";
import { callJson, createTenant, expectProblem, type Member, type TestTenant } from "../helpers/harness";
import { inMinutes, newPoll, vote } from "../modules/musyawarah/helpers";

/**
 * Issue 30 item 4: every 429 and 503 says Retry-After, rate-limited routes send the IETF RateLimit
 * headers, and a Durable Object or D1 call that throws is tried once more when retryable, else 503
 * `dependency_unavailable`, never 500, with nothing half-written. Failures are injected on the real
 * bindings the Worker uses (the test's `env` is the same object) and put back after each test.
 */
const restore: (() => void)[] = [];
afterEach(() => {
  for (const undo of restore.splice(0)) {
    undo();
  }
});

/** Replaces `obj[name]` until the end of the test. */
function patch<T extends object, K extends keyof T>(obj: T, name: K, value: T[K]): void {
  const had = Object.hasOwn(obj, name);
  const before = obj[name];
  obj[name] = value;
  restore.push(() => {
    if (had) {
      obj[name] = before;
    } else {
      delete obj[name];
    }
  });
}

const infraError = (message: string, props: Record<string, boolean>) =>
  Object.assign(new Error(message), props);

const complaint = {
  title: "Lampu jalan mati",
  description: "Lampu di depan blok C mati",
  category: "infrastruktur",
};
const complain = (who: Member) =>
  callJson<{ id: string }>("/api/pengaduan", { token: who.token, body: complaint });

async function complaintsOf(tenant: TestTenant, who: Member): Promise<number> {
  const row = await tenantD1(tenant)
    .prepare("SELECT count(*) AS n FROM complaints WHERE resident_id = ?")
    .bind(who.id)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** The RateLimiter namespace with every stub's calls failing `times` times with `error`, then working. */
function failingRateLimiter(error: Error, times = Number.POSITIVE_INFINITY): { calls: number } {
  const seen = { calls: 0 };
  const ns = env.RATE_LIMITER;
  const realGet = ns.get.bind(ns);
  patch(ns, "get", ((id: DurableObjectId) => {
    const stub = realGet(id);
    return new Proxy(stub, {
      get(target, name) {
        const value = Reflect.get(target, name);
        if (name !== "hit" && name !== "spend") {
          return typeof value === "function" ? value.bind(target) : value;
        }
        return (...args: unknown[]) => {
          seen.calls++;
          if (seen.calls <= times) {
            return Promise.reject(error);
          }
          return Reflect.apply(value as () => unknown, target, args);
        };
      },
    });
  }) as typeof ns.get);
  return seen;
}

describe("rate limit headers (IETF RateLimit, RateLimit-Policy)", () => {
  it("a rate-limited route says its policy and what is left; its 429 says Retry-After", async () => {
    const tenant = await createTenant();
    const a = await tenant.member("warga");
    const first = await complain(a);
    expect(first.status).toBe(201);
    expect(first.headers.get("RateLimit-Policy")).toBe('"pengaduan-create:member";q=20;w=86400');
    expect(first.headers.get("RateLimit")).toBe('"pengaduan-create:member";r=19;t=86400');
    for (let i = 1; i < 20; i++) {
      expect((await complain(a)).status).toBe(201);
    }
    const refused = await complain(a);
    expectProblem(refused, 429, "rate_limited");
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(refused.headers.get("RateLimit")).toMatch(/^"pengaduan-create:member";r=0;t=[1-9]\d*$/);
    expect(await complaintsOf(tenant, a)).toBe(20);
    // A route without a rate limit sends neither.
    const read = await callJson("/api/pengaduan/mine", { token: a.token });
    expect(read.headers.get("RateLimit")).toBeNull();
  });

  it("a 503 that named no time still says Retry-After, and CORS exposes the headers", async () => {
    patch(env.PLATFORM_DB, "prepare", (() => {
      throw infraError("D1_ERROR: D1 DB is overloaded. Too many requests queued.", {});
    }) as typeof env.PLATFORM_DB.prepare);
    const res = await callJson("/api/health");
    expect(res.status).toBe(503);
    expect(res.headers.get("Retry-After")).not.toBeNull();
    expect(res.headers.get("Access-Control-Expose-Headers")).toContain("RateLimit-Policy");
  });
});

describe("a Durable Object that fails", () => {
  it("RateLimiter: a retryable error is tried once more and the write goes through once", async () => {
    const tenant = await createTenant();
    const a = await tenant.member("warga");
    const seen = failingRateLimiter(infraError("Network connection lost.", { retryable: true }), 1);
    const res = await complain(a);
    expect(res.status).toBe(201);
    expect(seen.calls).toBe(2);
    expect(await complaintsOf(tenant, a)).toBe(1);
  });

  it("RateLimiter: an error twice, or one that is not retryable, is 503 dependency_unavailable and writes nothing", async () => {
    const tenant = await createTenant();
    const a = await tenant.member("warga");
    const twice = failingRateLimiter(infraError("Network connection lost.", { retryable: true }));
    const res = await complain(a);
    expectProblem(res, 503, "dependency_unavailable");
    expect(res.headers.get("Retry-After")).toBe("2");
    expect(twice.calls).toBe(2);
    restore.splice(0).forEach((undo) => {
      undo();
    });
    const once = failingRateLimiter(infraError("Durable Object storage went away", { retryable: false }));
    expectProblem(await complain(a), 503, "dependency_unavailable");
    expect(once.calls).toBe(1);
    expect(await complaintsOf(tenant, a)).toBe(0);
  });

  it("PollTally: a failing tally answers the vote 503, and no ballot is recorded anywhere", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const voter = await tenant.member("warga");
    const poll = await newPoll(sek.token, { status: "aktif", startsAt: inMinutes(-1) });
    const ns = env.POLL_TALLY;
    const realGet = ns.get.bind(ns);
    patch(ns, "get", ((id: DurableObjectId) => {
      const stub = realGet(id);
      return new Proxy(stub, {
        get(target, name) {
          const value = Reflect.get(target, name);
          if (typeof value !== "function") {
            return value;
          }
          return () =>
            Promise.reject(
              infraError("Durable Object reset because its code was updated.", { retryable: true }),
            );
        },
      });
    }) as typeof ns.get);
    const res = await vote(voter.token, poll.id, [poll.options[0]?.id ?? ""]);
    expectProblem(res, 503, "dependency_unavailable");
    expect(res.headers.get("Retry-After")).toBe("2");
    restore.splice(0).forEach((undo) => {
      undo();
    });
    const voters = await tenantD1(tenant)
      .prepare("SELECT count(*) AS n FROM poll_voters WHERE poll_id = ?")
      .bind(poll.id)
      .first<{ n: number }>();
    expect(voters?.n).toBe(0);
    // The tally itself holds no ballot either: the same resident can vote once it is back.
    expect((await vote(voter.token, poll.id, [poll.options[0]?.id ?? ""])).status).toBe(200);
  });
});

/**
 * Replaces `batch` of the tenant's database and of every D1 session opened on it: a request writes its
 * community through its session (ADR 0036), the idempotency record through the binding.
 */
/** Whether a prepared statement writes, from its SQL text (workerd keeps it as `statement`). */
const writes = (statement: D1PreparedStatement) =>
  /^\s*(insert|update|delete|replace)\b/i.test(
    (statement as unknown as { statement?: string }).statement ?? "",
  );

function patchBatches(
  db: D1Database,
  batch: (real: D1Database["batch"], statements: D1PreparedStatement[]) => Promise<D1Result[]>,
): void {
  const realBatch = db.batch.bind(db);
  patch(db, "batch", ((statements: D1PreparedStatement[]) =>
    batch(realBatch, statements)) as typeof db.batch);
  const realWithSession = db.withSession.bind(db);
  patch(db, "withSession", ((constraint?: string) => {
    const session = realWithSession(constraint as never);
    const sessionBatch = session.batch.bind(session) as D1Database["batch"];
    session.batch = ((statements: D1PreparedStatement[]) =>
      batch(sessionBatch, statements)) as typeof session.batch;
    return session;
  }) as typeof db.withSession);
}

describe("D1 that fails", () => {
  it("an overloaded tenant database answers 503 dependency_unavailable and writes nothing", async () => {
    const tenant = await createTenant();
    const a = await tenant.member("warga");
    const db = tenantD1(tenant);
    patchBatches(db, () =>
      Promise.reject(infraError("D1_ERROR: D1 DB is overloaded. Too many requests queued.", {})),
    );
    const res = await complain(a);
    expectProblem(res, 503, "dependency_unavailable");
    expect(res.headers.get("Retry-After")).toBe("2");
    restore.splice(0).forEach((undo) => {
      undo();
    });
    expect(await complaintsOf(tenant, a)).toBe(0);
  });

  it("a transient D1 error is retried once, and the batch lands once", async () => {
    const tenant = await createTenant();
    const a = await tenant.member("warga");
    // Reads ride batches too (a row by id is a batch of one): the write's batch is the one that fails.
    let calls = 0;
    patchBatches(tenantD1(tenant), (realBatch, statements) => {
      if (!statements.some(writes)) {
        return realBatch(statements);
      }
      calls++;
      return calls === 1
        ? Promise.reject(infraError("D1_ERROR: Network connection lost.", {}))
        : realBatch(statements);
    });
    const res = await complain(a);
    expect(res.status).toBe(201);
    expect(calls).toBe(2);
    expect(await complaintsOf(tenant, a)).toBe(1);
  });
});
