// Route latency, as ratios over a bare Hono route served by the same isolate in the same run:
// GET /api/health, and an authenticated tenant-scoped read (token verify, tenant resolve, D1 read).
import autocannon from "autocannon";
import { migrateAll } from "../db-migrate.mjs";
import { startDevServer } from "../lib/dev-server.mjs";
import { ensureDevVars } from "../lib/dev-vars.mjs";
import { STATE_DIR } from "../lib/wrangler.mjs";
import { seed } from "../seed-dev.mjs";
import { slotCountFromConfig } from "../tenant-slots.mjs";

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 6);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const ROUNDS = 2;

function load(url, headers = {}) {
  return new Promise((resolve, reject) => {
    autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_S }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

export async function run() {
  ensureDevVars(["wrangler.toml"]);
  await migrateAll({ quiet: true });
  await seed({ slots: slotCountFromConfig() });
  const server = await startDevServer({ script: "scripts/bench/entry.ts", persistTo: STATE_DIR });
  try {
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "sekretaris.rt01@warga.test", password: "warga-demo-2026" }),
    });
    const { accessToken } = await login.json();
    const auth = { Authorization: `Bearer ${accessToken}` };
    const read = `${server.url}/api/kependudukan/units/seed-unit-rt01-a1`;
    const check = await fetch(read, { headers: auth });
    if (check.status !== 200) {
      throw new Error(`tenant read answered ${check.status}: ${await check.text()}`);
    }
    const targets = {
      bare: { url: `${server.url}/__bare` },
      health: { url: `${server.url}/api/health` },
      tenantRead: { url: read, headers: auth },
    };
    // Warm every path once, then interleave rounds so drift on a shared machine hits all alike.
    for (const t of Object.values(targets)) {
      await load(t.url, t.headers);
    }
    const samples = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, t] of Object.entries(targets)) {
        const r = await load(t.url, t.headers);
        if (r.non2xx > 0 || r.errors > 0) {
          throw new Error(`${name}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
        }
        samples[name].push({ p50: r.latency.p50, p99: r.latency.p99, rps: r.requests.average });
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
      `\nAPI routes via wrangler dev (${CONNECTIONS} connections, ${ROUNDS}×${DURATION_S}s each, interleaved)`,
    );
    console.log("route                       p50 ms   p99 ms    req/s   p50 ratio  p99 ratio");
    for (const [name, s] of Object.entries(stats)) {
      const r50 = (s.p50 / stats.bare.p50).toFixed(2);
      const r99 = (s.p99 / stats.bare.p99).toFixed(2);
      console.log(
        `${name.padEnd(26)} ${s.p50.toFixed(1).padStart(7)} ${s.p99.toFixed(1).padStart(8)} ${s.rps.toFixed(0).padStart(8)} ${r50.padStart(10)} ${r99.padStart(10)}`,
      );
    }
    const ratio = stats.tenantRead.p50 / stats.bare.p50;
    console.log(
      `authenticated tenant read p50 / bare p50 = ${ratio.toFixed(2)} (target ≤ 2.00): ${ratio <= 2 ? "met" : "NOT met"}`,
    );
    return stats;
  } finally {
    await server.stop();
  }
}
