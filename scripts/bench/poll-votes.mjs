// 2,000 residents voting at once on one poll through `wrangler dev`: votes per second, vote p50/p99
// as ratios over a bare Durable Object increment in the same run, and an exact check that the final
// counts equal the accepted ballots.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SignJWT } from "jose";
import { migrateAll } from "../db-migrate.mjs";
import { root, startDevServer } from "../lib/dev-server.mjs";
import { devSecret, ensureDevVars } from "../lib/dev-vars.mjs";
import { executeLocalSql, queryLocal, readConfig, STATE_DIR } from "../lib/wrangler.mjs";
import { seed } from "../seed-dev.mjs";
import { slotCountFromConfig } from "../tenant-slots.mjs";

const VOTERS = Number(process.env.BENCH_VOTERS ?? 2000);
const TENANT = "rt-02-sukamaju";

/** wrangler.toml plus the bench entry and its bare counter object; generated, never committed. */
function benchConfig() {
  const path = join(root, "wrangler.bench.toml");
  const base = readFileSync(join(root, "wrangler.toml"), "utf8").replace(
    /^main = .*$/m,
    'main = "scripts/bench/entry.ts"',
  );
  writeFileSync(
    path,
    `${base}
[[durable_objects.bindings]]
name = "BENCH_COUNTER"
class_name = "BenchCounter"

[[migrations]]
tag = "bench-v1"
new_sqlite_classes = ["BenchCounter"]
`,
  );
  return "wrangler.bench.toml";
}

async function seedVoters() {
  const tenant = (await queryLocal("warga-platform", `SELECT id FROM tenants WHERE slug = '${TENANT}'`))[0];
  const now = new Date().toISOString();
  const lines = [];
  for (let i = 1; i <= VOTERS; i++) {
    const id = `bench-voter-${String(i).padStart(5, "0")}`;
    lines.push(
      `INSERT OR IGNORE INTO users (id, email, name, updated_at) VALUES ('${id}', '${id}@bench.warga.test', 'Pemilih ${i}', '${now}');`,
    );
    lines.push(
      `INSERT OR IGNORE INTO memberships (id, user_id, tenant_id, role) VALUES ('m-${id}', '${id}', '${tenant.id}', 'warga');`,
    );
  }
  await executeLocalSql("warga-platform", lines.join("\n"), "bench-voters");
}

async function timed(fn) {
  const started = performance.now();
  const res = await fn();
  return { ms: performance.now() - started, status: res.status, res };
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const summary = (samples) => {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  return { p50: pct(ms, 50), p99: pct(ms, 99) };
};

export async function run() {
  ensureDevVars(["wrangler.toml"]);
  await migrateAll({ quiet: true });
  await seed({ slots: slotCountFromConfig() });
  await seedVoters();
  const vars = readConfig("wrangler.toml").vars;
  const server = await startDevServer({
    configs: [benchConfig()],
    persistTo: STATE_DIR,
    vars: { JWT_SECRET: devSecret("JWT_SECRET") },
  });
  try {
    const login = await (
      await fetch(`${server.url}/api/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email: "sekretaris.rt02@warga.test", password: "warga-demo-2026" }),
      })
    ).json();
    const staff = { Authorization: `Bearer ${login.accessToken}`, "Content-Type": "application/json" };
    const created = await fetch(`${server.url}/api/musyawarah`, {
      method: "POST",
      headers: staff,
      body: JSON.stringify({
        title: `Bench ${new Date().toISOString()}`,
        options: ["Setuju", "Tidak setuju", "Abstain"],
        startsAt: new Date(Date.now() - 60_000).toISOString(),
        endsAt: new Date(Date.now() + 3_600_000).toISOString(),
        status: "aktif",
      }),
    });
    const poll = await created.json();
    if (created.status !== 201) {
      throw new Error(`poll creation failed: ${JSON.stringify(poll)}`);
    }
    const key = new TextEncoder().encode(devSecret("JWT_SECRET"));
    const tokens = await Promise.all(
      Array.from({ length: VOTERS }, (_, i) =>
        new SignJWT({ tenant: TENANT, role: "warga", sid: `bench-${i}` })
          .setProtectedHeader({ alg: "HS256" })
          .setSubject(`bench-voter-${String(i + 1).padStart(5, "0")}`)
          .setIssuer(vars.JWT_ISSUER)
          .setAudience(vars.JWT_AUDIENCE)
          .setIssuedAt()
          .setExpirationTime("15m")
          .sign(key),
      ),
    );
    // Warm both paths, then fire every ballot at once, then as many bare increments at once.
    await Promise.all(Array.from({ length: 20 }, () => fetch(`${server.url}/__bare-do`, { method: "POST" })));
    const started = performance.now();
    const votes = await Promise.all(
      tokens.map((token, i) =>
        timed(() =>
          fetch(`${server.url}/api/musyawarah/${poll.id}/vote`, {
            method: "POST",
            headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
            body: JSON.stringify({ optionIds: [poll.options[i % 3].id] }),
          }),
        ),
      ),
    );
    const wall = (performance.now() - started) / 1000;
    const bareDo = await Promise.all(
      tokens.map(() => timed(() => fetch(`${server.url}/__bare-do`, { method: "POST" }))),
    );
    const accepted = votes.filter((v) => v.status === 200).length;
    const statuses = {};
    for (const v of votes) {
      statuses[v.status] = (statuses[v.status] ?? 0) + 1;
    }
    const failed = votes.find((x) => x.status !== 200);
    if (failed) {
      console.log(`  first refusal           ${failed.status} ${(await failed.res.text()).slice(0, 300)}`);
    }
    const final = await (await fetch(`${server.url}/api/musyawarah/${poll.id}`, { headers: staff })).json();
    const counted = final.results.reduce((n, r) => n + r.count, 0);
    const v = summary(votes);
    const b = summary(bareDo);
    console.log(`\nPoll voting via wrangler dev: ${VOTERS} residents at once on one poll`);
    console.log(`  answers                 ${JSON.stringify(statuses)}`);
    console.log(
      `  votes per second        ${(accepted / wall).toFixed(0)} (${accepted} accepted in ${wall.toFixed(2)} s)`,
    );
    console.log(`  vote p50 / p99          ${v.p50.toFixed(1)} / ${v.p99.toFixed(1)} ms`);
    console.log(`  bare DO p50 / p99       ${b.p50.toFixed(1)} / ${b.p99.toFixed(1)} ms`);
    console.log(`  ratio p50 / p99         ${(v.p50 / b.p50).toFixed(2)} / ${(v.p99 / b.p99).toFixed(2)}`);
    console.log(
      `  final counts            ${JSON.stringify(final.results.map((r) => r.count))} = ${counted}, ballots ${final.turnout.ballots}`,
    );
    const exact = counted === accepted && final.turnout.ballots === accepted;
    console.log(`  counts equal accepted   ${exact ? "yes, exactly" : "NO"}`);
    if (!exact) {
      process.exitCode = 1;
    }
  } finally {
    await server.stop();
  }
}
