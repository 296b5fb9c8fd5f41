// Support ticket lists with 10,000 tickets in the platform database, on the bench entry served by
// workerd: the tenant console's list and the operators' list with each filter (status, Asia/Jakarta days, tenant), as p50
// ratios over the bare route served by the same isolate in the same run.
import { createHash } from "node:crypto";
import { devSecret } from "../lib/dev-vars.mjs";
import { load as loadRoute } from "../lib/load.mjs";
import { runAll } from "./d1.mjs";
import { prepareBenchState, startBenchWorkerd } from "./server.mjs";
import { benchToken, liveSessionStatements } from "./tokens.mjs";

const TICKETS = Number(process.env.BENCH_TICKETS ?? 10_000);
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const ROUNDS = 2;
// Seeded by scripts/seed-dev.mjs: 70 % of the tickets go to RT 01, the rest to RT 02.
const TENANTS = [
  { id: "seed-tenant-rt01", slug: "rt-01-sukamaju" },
  { id: "seed-tenant-rt02", slug: "rt-02-sukamaju" },
];
const STATUSES = ["baru", "diproses", "selesai"];
const q = (v) => (v === null ? "NULL" : `'${String(v).replace(/'/g, "''")}'`);

/** 10,000 tickets over 2026, one every 45 minutes, written once (INSERT OR IGNORE by fixed ids). */
async function seedTickets(platform) {
  const start = Date.parse("2026-01-01T00:00:00Z");
  const lines = [];
  for (let i = 1; i <= TICKETS; i++) {
    const tenant = i % 10 < 7 ? TENANTS[0] : TENANTS[1];
    // Only the token's hash is stored (platform migration 0004); the token itself is never kept.
    const token = `bench-reply-token-${String(i).padStart(6, "0")}-xxxxxxxxxxxxxxxx`;
    const hash = createHash("sha256").update(token).digest("hex");
    const at = new Date(start + i * 45 * 60_000).toISOString();
    lines.push(
      `INSERT OR IGNORE INTO support_tickets (id, number, tenant_id, tenant_slug, source, category, title, detail, status, reply_token_hash, submitter_name, write_id, created_at, updated_at) VALUES (${[
        `bench-ticket-${String(i).padStart(6, "0")}`,
        900_000 + i,
        tenant.id,
        tenant.slug,
        "tenant",
        "teknis",
        `Tiket bench ${i}`,
        "Detail tiket untuk pengukuran daftar.",
        STATUSES[i % 3],
        hash,
        "Pengurus Bench",
        `bench-write-${i}`,
        at,
        at,
      ]
        .map((v) => (typeof v === "number" ? String(v) : q(v)))
        .join(", ")});`,
    );
  }
  await runAll(platform, lines);
  const count = (await platform.prepare("SELECT COUNT(*) AS n FROM support_tickets").first()).n;
  return count;
}

/**
 * Who reads the lists: RT 01's ketua (admin; the demo officers live in their RT) and the operator. Each
 * token names a sign-in of its own, written as a live session before the server starts.
 */
const READERS = {
  admin: { sub: "seed-user-admin-rt01", tenant: TENANTS[0], roles: ["admin"], resident: true },
  operator: { sub: "seed-user-operator", tenant: null, roles: ["super_admin"], resident: false },
};
const sidOf = (reader) => `bench-${reader.sub}`;

async function seedSessions(platform) {
  const rows = Object.values(READERS).map((r) => ({
    sid: sidOf(r),
    userId: r.sub,
    tenantId: r.tenant?.id ?? null,
  }));
  await platform.batch(liveSessionStatements(rows).map((s) => platform.prepare(s)));
}

function token(reader) {
  return benchToken({
    secret: devSecret("JWT_SECRET"),
    sub: reader.sub,
    tenant: reader.tenant?.slug ?? null,
    roles: reader.roles,
    resident: reader.resident,
    sid: sidOf(reader),
    ttl: "15m",
  });
}

const load = (url, headers = {}) =>
  loadRoute({ url, headers, connections: CONNECTIONS, duration: DURATION_S });

export async function run() {
  await prepareBenchState();
  const server = await startBenchWorkerd({
    vars: { JWT_SECRET: devSecret("JWT_SECRET"), LOG_LEVEL: "warn" },
  });
  try {
    const platform = await server.mf.getD1Database("PLATFORM_DB");
    const total = await seedTickets(platform);
    await seedSessions(platform);
    const admin = { Authorization: `Bearer ${await token(READERS.admin)}` };
    const operator = { Authorization: `Bearer ${await token(READERS.operator)}` };
    const tenantList = `${server.url}/api/support-tickets`;
    const platformList = `${server.url}/api/platform/support-tickets`;
    const targets = {
      bare: { url: `${server.url}/__bare` },
      "tenant list": { url: tenantList, headers: admin },
      "tenant status+days": {
        url: `${tenantList}?status=diproses&from=2026-03-01&to=2026-06-30`,
        headers: admin,
      },
      "platform list": { url: platformList, headers: operator },
      "platform status": { url: `${platformList}?status=selesai`, headers: operator },
      "platform days": { url: `${platformList}?from=2026-05-01&to=2026-05-31`, headers: operator },
      "platform tenant+all": {
        url: `${platformList}?tenant=${TENANTS[1].slug}&status=baru&from=2026-02-01&to=2026-10-31`,
        headers: operator,
      },
    };
    for (const [name, t] of Object.entries(targets)) {
      const res = await fetch(t.url, { headers: t.headers });
      if (res.status !== 200) {
        throw new Error(`${name} answered ${res.status}: ${await res.text()}`);
      }
      if (name !== "bare") {
        t.summary = (await res.json()).summary;
      }
      await load(t.url, t.headers);
    }
    const samples = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, t] of Object.entries(targets)) {
        const r = await load(t.url, t.headers);
        if (r.non2xx > 0 || r.errors > 0) {
          throw new Error(`${name}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
        }
        samples[name].push({ p50: r.p50, p99: r.p99, rps: r.rps });
      }
    }
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const stats = Object.fromEntries(
      Object.entries(samples).map(([k, v]) => [
        k,
        { p50: mean(v.map((s) => s.p50)), p99: mean(v.map((s) => s.p99)), rps: mean(v.map((s) => s.rps)) },
      ]),
    );
    console.log(
      `\nSupport ticket lists on workerd, ${total} tickets in the platform database (${CONNECTIONS} connections, ${ROUNDS}×${DURATION_S}s each, interleaved)`,
    );
    console.log("route                       p50 ms   p99 ms    req/s   p50 ratio  summary total");
    for (const [name, s] of Object.entries(stats)) {
      const r50 = (s.p50 / stats.bare.p50).toFixed(2);
      const summary = targets[name].summary ? String(targets[name].summary.total) : "-";
      console.log(
        `${name.padEnd(26)} ${s.p50.toFixed(1).padStart(7)} ${s.p99.toFixed(1).padStart(8)} ${s.rps.toFixed(0).padStart(8)} ${r50.padStart(10)} ${summary.padStart(14)}`,
      );
    }
    return stats;
  } finally {
    await server.stop();
  }
}
