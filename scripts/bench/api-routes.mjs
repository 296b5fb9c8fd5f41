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

function load(target) {
  const { url, headers = {}, method = "GET", body } = target;
  return new Promise((resolve, reject) => {
    autocannon(
      { url, headers, method, body, connections: CONNECTIONS, duration: DURATION_S },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

async function post(url, token, body) {
  const res = await fetch(url, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) {
    throw new Error(`${url}: ${res.status} ${JSON.stringify(json)}`);
  }
  return json;
}

async function signIn(base, email) {
  return (await post(`${base}/api/auth/login`, "", { email, password: "warga-demo-2026" })).accessToken;
}

/** A gate device of rt-01 and an approved guest's pass, scanned once so later scans are refusals. */
async function gateFixture(base, staffAuth) {
  const admin = await signIn(base, "admin.rt01@warga.test");
  const resident = await signIn(base, "warga1.rt01@warga.test");
  const { apiKey } = await post(`${base}/api/gate-devices`, admin, {
    name: `Bench ${Date.now()}`,
    adapter: "generic",
  });
  const visit = await post(`${base}/api/visitor`, resident, {
    guestName: "Tamu Bench",
    purpose: "Benchmark",
    visitAt: new Date(Date.now() + 1_800_000).toISOString(),
  });
  const res = await fetch(`${base}/api/visitor/${visit.id}`, {
    method: "PUT",
    headers: { ...staffAuth, "Content-Type": "application/json" },
    body: JSON.stringify({ status: "disetujui" }),
  });
  const approved = await res.json();
  const body = JSON.stringify({ event: "qr_scan", qr: approved.pass, direction: "in" });
  const headers = { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" };
  const first = await (
    await fetch(`${base}/api/gate-hardware/webhook`, { method: "POST", headers, body })
  ).json();
  if (first.action !== "open") {
    throw new Error(`gate fixture: first scan did not open: ${JSON.stringify(first)}`);
  }
  return { headers, body };
}

export async function run() {
  ensureDevVars(["wrangler.toml"]);
  await migrateAll({ quiet: true });
  await seed({ slots: slotCountFromConfig() });
  // The access line is off by default here: under `wrangler dev` every console line is piped to the
  // terminal process, which costs ~0.7× a bare route, far more than Workers Logs does when deployed.
  // BENCH_LOG_LEVEL=info measures with it.
  const logLevel = process.env.BENCH_LOG_LEVEL ?? "warn";
  const vars = { LOG_LEVEL: logLevel };
  const server = await startDevServer({ script: "scripts/bench/entry.ts", persistTo: STATE_DIR, vars });
  try {
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "sekretaris.rt01@warga.test", password: "warga-demo-2026" }),
    });
    const { accessToken } = await login.json();
    if (login.status !== 200) {
      throw new Error(`demo sign-in answered ${login.status}`);
    }
    const auth = { Authorization: `Bearer ${accessToken}` };
    const read = `${server.url}/api/kependudukan/units/seed-unit-rt01-a1`;
    const check = await fetch(read, { headers: auth });
    if (check.status !== 200) {
      throw new Error(`tenant read answered ${check.status}: ${await check.text()}`);
    }
    const gate = await gateFixture(server.url, auth);
    const targets = {
      bare: { url: `${server.url}/__bare` },
      bareD1: { url: `${server.url}/__bare-d1` },
      health: { url: `${server.url}/api/health` },
      tenantRead: { url: read, headers: auth },
      // After the first scan the guest is inside, so this measures the full refusal path: key lookup,
      // pass verification, the conditional update, the reason read, the event log and last-seen write.
      webhookQrScan: {
        url: `${server.url}/api/gate-hardware/webhook`,
        headers: gate.headers,
        method: "POST",
        body: gate.body,
      },
    };
    // Warm every path once, then interleave rounds so drift on a shared machine hits all alike.
    for (const t of Object.values(targets)) {
      await load(t);
    }
    const samples = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, t] of Object.entries(targets)) {
        const r = await load(t);
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
      `\nAPI routes via wrangler dev (${CONNECTIONS} connections, ${ROUNDS}×${DURATION_S}s each, interleaved, LOG_LEVEL=${logLevel})`,
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
      `gate webhook qr_scan p50 / bare p50 = ${(stats.webhookQrScan.p50 / stats.bare.p50).toFixed(2)}, p99 ratio ${(stats.webhookQrScan.p99 / stats.bare.p99).toFixed(2)}`,
    );
    console.log(
      `authenticated tenant read p50 / bare p50 = ${ratio.toFixed(2)} (target ≤ 2.00): ${ratio <= 2 ? "met" : "NOT met"}`,
    );
    return stats;
  } finally {
    await server.stop();
  }
}
