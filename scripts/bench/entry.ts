// Benchmark entry: the real API Worker plus bare baselines in the same isolate, so each route is
// measured against them on the same runtime in the same run. Never deployed.
import { DurableObject } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { Hono } from "hono";
import { hashPassword, verifyPassword } from "../../src/core/auth/password";
import { rowById } from "../../src/core/db/rows";
import { log } from "../../src/core/http/log";
import { newId } from "../../src/core/ids";
import { ownerCheckLimit, SLOT_OWNER_TABLE } from "../../src/core/tenancy/owner";
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
// The bare route plus one line of the shape the access line has (core/http/log.ts at `info`): what a
// request's log line costs on its own (`npm run bench -- read-path`).
bare.get("/__bare-log", (c) => {
  log("info", "request", { requestId: newId(), method: "GET", path: "/__bare-log", status: 200, ms: 0 });
  return c.json({ ok: true });
});
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
let unitOwner: Promise<string | null> | undefined;
// The same row as the route reads it: a batch of one carrying the slot owner's check (core/tenancy/owner.ts).
bare.get("/__bare-row/guarded", async (c) => {
  const binding = await unitDatabase(c.env);
  unitOwner ??= binding
    .prepare(`SELECT tenant_id FROM ${SLOT_OWNER_TABLE} WHERE id = 1`)
    .first<string>("tenant_id");
  const owner = await unitOwner;
  const db = binding.withSession("first-unconstrained");
  const [row] = await db.batch([
    db.prepare(`SELECT * FROM units WHERE id = ?1 ${ownerCheckLimit(2)}`).bind(BENCH_UNIT, owner),
  ]);
  return c.json(row?.results[0] ?? null);
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

// What a route's own JavaScript costs, without D1's time in it (`npm run bench -- read-path`, its last
// line): the route is run `n` times inside this isolate against a tape of the D1 answers its first two
// runs got (keyed by database, method, SQL and parameters; the same answer objects each time), so the
// workerd process's CPU over the loop is the Worker's code alone (Hono, chanfana, the guard, the tenant,
// the answer, the access line). Its rounds in one run differ by about a tenth where a load over sockets
// and D1 differs by a third; runs minutes apart differ by a fifth, so two builds are compared side by
// side in one run (scripts/bench/js-cost-ab.mjs). Nothing else is taped: a Durable Object or a queue
// the route calls is called for real.
type Tape = Map<string, unknown>;
interface TapeMode {
  replay: boolean;
  misses: number;
}
class TapeStatement {
  constructor(
    readonly db: TapeDb,
    readonly sql: string,
    readonly params: unknown[] = [],
  ) {}
  bind(...params: unknown[]) {
    return new TapeStatement(this.db, this.sql, params);
  }
  key(method: string) {
    return `${method} ${this.sql} ${JSON.stringify(this.params)}`;
  }
  real(): D1PreparedStatement {
    return this.db.real.prepare(this.sql).bind(...this.params);
  }
  first(column?: string) {
    return this.db.play(this.key(`first:${column ?? ""}`), () =>
      column === undefined ? this.real().first() : this.real().first(column),
    );
  }
  all() {
    return this.db.play(this.key("all"), () => this.real().all());
  }
  run() {
    return this.db.play(this.key("run"), () => this.real().run());
  }
  raw(options?: { columnNames?: boolean }) {
    return this.db.play(this.key(`raw:${options?.columnNames ?? false}`), () =>
      options?.columnNames ? this.real().raw({ columnNames: true }) : this.real().raw(),
    );
  }
}
class TapeDb {
  constructor(
    readonly real: D1Database | D1DatabaseSession,
    readonly tape: Tape,
    readonly mode: TapeMode,
    readonly name: string,
  ) {}
  async play(key: string, fetchReal: () => Promise<unknown>): Promise<unknown> {
    const k = `${this.name} ${key}`;
    if (this.mode.replay && this.tape.has(k)) {
      return this.tape.get(k);
    }
    if (this.mode.replay) {
      this.mode.misses += 1;
    }
    const answer = await fetchReal();
    this.tape.set(k, answer);
    return answer;
  }
  prepare(sql: string) {
    return new TapeStatement(this, sql);
  }
  batch(statements: TapeStatement[]) {
    return this.play(`batch ${statements.map((s) => s.key("all")).join(" | ")}`, () =>
      this.real.batch(statements.map((s) => s.real())),
    );
  }
  withSession(constraint?: string) {
    const session = (this.real as D1Database).withSession(constraint as never);
    return new TapeDb(session, this.tape, this.mode, `${this.name}~`);
  }
  getBookmark() {
    const k = `${this.name} bookmark`;
    if (!this.mode.replay || !this.tape.has(k)) {
      this.tape.set(k, (this.real as D1DatabaseSession).getBookmark());
    }
    return this.tape.get(k);
  }
}
const tapes = new Map<string, { env: BenchEnv; mode: TapeMode }>();
function tapedEnv(env: BenchEnv, path: string) {
  let taped = tapes.get(path);
  if (!taped) {
    const tape: Tape = new Map();
    const mode: TapeMode = { replay: false, misses: 0 };
    const wrapped: Record<string, unknown> = { ...env };
    for (const [name, value] of Object.entries(env)) {
      const v = value as Partial<D1Database>;
      if (
        v &&
        typeof v.prepare === "function" &&
        typeof v.batch === "function" &&
        typeof v.withSession === "function"
      ) {
        wrapped[name] = new TapeDb(value as D1Database, tape, mode, name);
      }
    }
    taped = { env: wrapped as BenchEnv, mode };
    tapes.set(path, taped);
  }
  return taped;
}
bare.get("/__js-cost", async (c) => {
  const path = c.req.query("path") ?? "/__bare";
  const n = Number(c.req.query("n") ?? 1000);
  const headers = new Headers();
  const authorization = c.req.header("Authorization");
  if (authorization) {
    headers.set("Authorization", authorization);
  }
  const { env, mode } = tapedEnv(c.env, path);
  const url = new URL(path, c.req.url).toString();
  const once = async () => {
    const res = await benchFetch(new Request(url, { headers }), env, c.executionCtx as ExecutionContext);
    await res.arrayBuffer();
    return res.status;
  };
  mode.replay = false;
  const statuses = [await once(), await once()];
  mode.replay = true;
  mode.misses = 0;
  for (let i = 0; i < n; i++) {
    statuses.push(await once());
  }
  return c.json({ path, n, misses: mode.misses, statuses: [...new Set(statuses)] });
});

function benchFetch(request: Request, env: BenchEnv, ctx: ExecutionContext) {
  const path = new URL(request.url).pathname;
  if (path.startsWith("/__bare") || path === "/__js-cost") {
    return bare.fetch(request, env, ctx);
  }
  return worker.fetch(request, env, ctx);
}

export default { fetch: benchFetch } satisfies ExportedHandler<BenchEnv>;
