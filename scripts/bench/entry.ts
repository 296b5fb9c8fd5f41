// Benchmark entry: the real API Worker plus bare baselines in the same isolate, so each route is
// measured against them on the same runtime in the same run. Never deployed.
import { DurableObject } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { Hono } from "hono";
import { hashPassword, verifyPassword } from "../../src/core/auth/password";
import { rowById } from "../../src/core/db/rows";
import { isSlotBinding } from "../../src/core/tenancy/slots";
import worker from "../../src/index";
import { identityRateLimit, startLoginAttempt } from "../../src/modules/identity/limits";
import { units } from "../../src/modules/kependudukan/tables";

// Every Durable Object class the API declares must be exported by the entry wrangler runs.
export * from "../../src/index";

/** The cheapest useful Durable Object call: one synchronous SQLite increment. */
export class BenchCounter extends DurableObject {
  increment(): number {
    this.ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS c (k INTEGER PRIMARY KEY, n INTEGER NOT NULL)");
    return this.ctx.storage.sql
      .exec<{ n: number }>(
        "INSERT INTO c (k, n) VALUES (1, 1) ON CONFLICT(k) DO UPDATE SET n = n + 1 RETURNING n",
      )
      .one().n;
  }
}

type BenchEnv = Env & { BENCH_COUNTER?: DurableObjectNamespace<BenchCounter> };

const bare = new Hono<{ Bindings: BenchEnv }>();
bare.get("/__bare", (c) => c.json({ ok: true }));
// The irreducible part of a tenant read: one D1 round trip, with nothing of ours around it.
bare.get("/__bare-d1", async (c) => c.json(await c.env.TENANT_DB_01.prepare("SELECT 1 AS one").first()));
// The same read as a tenant route makes it: through a D1 session (ADR 0036: every tenant request reads
// its community's database through one, so production may answer from a nearby replica).
bare.get("/__bare-d1-session", async (c) =>
  c.json(await c.env.TENANT_DB_01.withSession("first-unconstrained").prepare("SELECT 1 AS one").first()),
);
// An authenticated tenant read, taken apart (`npm run bench -- read-path`): the same unit row read
// bare, through drizzle building its query on every request (as every route did), and through
// `rowById` (drizzle's SQL built once per table), with nothing of ours around them.
const BENCH_UNIT = "seed-unit-rt01-a1";
let unitSlot: Promise<D1Database> | undefined;
let unitOrm: ReturnType<typeof drizzle> | undefined;
function unitDatabase(env: BenchEnv): Promise<D1Database> {
  unitSlot ??= (async () => {
    const bindings = env as unknown as Record<string, D1Database>;
    for (const name of Object.keys(bindings).filter(isSlotBinding)) {
      const db = bindings[name] as D1Database;
      if (await db.prepare("SELECT 1 FROM units WHERE id = ?").bind(BENCH_UNIT).first()) {
        return db;
      }
    }
    throw new Error(`no slot holds ${BENCH_UNIT}: run the seed first`);
  })();
  return unitSlot;
}
/** One drizzle instance for the isolate, as `tenantDb` keeps one per binding. */
async function unitDrizzle(env: BenchEnv) {
  const binding = await unitDatabase(env);
  unitOrm ??= drizzle(binding);
  return unitOrm;
}
bare.get("/__bare-row/sql", async (c) => {
  const db = await unitDatabase(c.env);
  return c.json(await db.prepare("SELECT * FROM units WHERE id = ?").bind(BENCH_UNIT).first());
});
// The same read through a D1 session (ADR 0036), as every tenant route reads its own community.
bare.get("/__bare-row/session", async (c) => {
  const db = (await unitDatabase(c.env)).withSession("first-unconstrained");
  return c.json(await db.prepare("SELECT * FROM units WHERE id = ?").bind(BENCH_UNIT).first());
});
bare.get("/__bare-row/drizzle", async (c) => {
  const db = await unitDrizzle(c.env);
  return c.json(await db.select().from(units).where(eq(units.id, BENCH_UNIT)).get());
});
bare.get("/__bare-row/rowById", async (c) =>
  c.json(await rowById(await unitDrizzle(c.env), units, BENCH_UNIT)),
);
// One password check of each scheme with nothing else around it: what a sign-in costs in PBKDF2 alone.
const BENCH_PEPPER = "bench-pepper-bench-pepper-bench-pepper-0000";
const legacyHash = "pbkdf2-sha256$100000$MDEyMzQ1Njc4OWFiY2RlZg$H8E0NVJ6dC5fHv4T9oZ6gN8Gr6xJ6e6a8W3wEM8YgJk";
let pepperedHash: Promise<string> | undefined;
bare.get("/__bare-hash/:scheme", async (c) => {
  pepperedHash ??= hashPassword("warga-demo-2026", BENCH_PEPPER);
  const stored = c.req.param("scheme") === "legacy" ? legacyHash : await pepperedHash;
  const check = await verifyPassword("warga-demo-2026", stored, BENCH_PEPPER);
  return c.json({ scheme: c.req.param("scheme"), valid: check.valid });
});
// Sign-in's other parts, alone, to say where its CPU beyond PBKDF2 goes: the per-IP count (a new
// address each time, as the bench's sign-ins come from, so a new limiter object), and one attempt
// against an account's failure budget cleared as a right password clears it.
let benchIp = 0;
bare.get("/__bare-login-limits", async (c) => {
  benchIp += 1;
  const ip = `bench-${benchIp}`;
  await identityRateLimit(c.env, [{ policy: "login:ip", subject: ip }]);
  const attempt = await startLoginAttempt(c.env, `user:bench-${benchIp % 5}`, ip);
  await attempt.succeeded();
  return c.json({ ok: true });
});
bare.post("/__bare-do", async (c) => {
  const ns = c.env.BENCH_COUNTER;
  if (!ns) {
    return c.json({ error: "BENCH_COUNTER is bound only by the poll benchmark's config" }, 500);
  }
  return c.json({ n: await ns.get(ns.idFromName("bench")).increment() });
});

export default {
  fetch(request: Request, env: BenchEnv, ctx: ExecutionContext) {
    if (new URL(request.url).pathname.startsWith("/__bare")) {
      return bare.fetch(request, env, ctx);
    }
    return worker.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<BenchEnv>;
