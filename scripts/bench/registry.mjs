// The population registry at 5,000 KK / 18,000 persons / 6,000 vehicles in RT 01's database, on
// workerd served directly (scripts/lib/workerd.mjs, ADR 0015): the KK list and its search (member
// name, NIK prefix, KK prefix, plate, block) as p50 ratios over the bare routes served by the same
// isolate in the same run, with the workerd process's CPU per request; and the whole-registry export
// (.xlsx and .csv), each on a fresh workerd: time end to end and to the first byte, CPU, and peak
// memory as the workerd process's peak RSS above its RSS just before the request.
import { readFileSync, writeFileSync } from "node:fs";
import { migrateAll } from "../db-migrate.mjs";
import { devSecret, ensureDevVars } from "../lib/dev-vars.mjs";
import { load as loadRoute } from "../lib/load.mjs";
import { bundleWorker, startWorkerd } from "../lib/workerd.mjs";
import { executeLocalSql, queryLocal, STATE_DIR } from "../lib/wrangler.mjs";
import { seed } from "../seed-dev.mjs";
import { slotCountFromConfig } from "../tenant-slots.mjs";
import { benchToken, liveSessionStatements } from "./tokens.mjs";

const FAMILIES = Number(process.env.BENCH_FAMILIES ?? 5_000);
const PERSONS = Number(process.env.BENCH_PERSONS ?? 18_000);
const VEHICLES = Number(process.env.BENCH_VEHICLES ?? 6_000);
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const ROUNDS = 2;
/** `BENCH_PARTS=export` (or `search`, or `stats`; comma-separated for several) runs those parts only. */
const PARTS = (process.env.BENCH_PARTS ?? "search,stats,export").split(",");
const TENANT = { id: "seed-tenant-rt01", slug: "rt-01-sukamaju" };
const q = (v) =>
  v === null ? "NULL" : typeof v === "number" ? String(v) : `'${String(v).replace(/'/g, "''")}'`;

const MEN = [
  "Agus",
  "Budi",
  "Dedi",
  "Eko",
  "Hendra",
  "Joko",
  "Rudi",
  "Slamet",
  "Teguh",
  "Wahyu",
  "Yusuf",
  "Asep",
];
const WOMEN = [
  "Siti",
  "Dewi",
  "Sri",
  "Rina",
  "Wulan",
  "Ani",
  "Nur",
  "Lestari",
  "Yanti",
  "Ratna",
  "Euis",
  "Tuti",
];
const SURNAMES = [
  "Santoso",
  "Wijaya",
  "Hidayat",
  "Saputra",
  "Kurniawan",
  "Setiawan",
  "Nugroho",
  "Permana",
  "Gunawan",
  "Suryadi",
  "Rahman",
  "Firmansyah",
  "Pratama",
  "Siregar",
  "Nasution",
  "Simanjuntak",
];
const pad = (n, w) => String(n).padStart(w, "0");

/** A NIK with digits 7–12 its holder's birth date (day + 40 for a woman). */
function nik(i, sex) {
  const day = (i % 28) + 1 + (sex === "P" ? 40 : 0);
  const month = (i % 12) + 1;
  const year = 40 + (i % 60);
  return `3273${pad(10 + (i % 80), 2)}${pad(day, 2)}${pad(month, 2)}${pad(year % 100, 2)}${pad((i % 9999) + 1, 4)}`;
}

function rows(table, columns, values) {
  const lines = [];
  for (let i = 0; i < values.length; i += 200) {
    lines.push(
      `INSERT OR IGNORE INTO ${table} (${columns.join(", ")}) VALUES ${values
        .slice(i, i + 200)
        .map((v) => `(${v.map(q).join(", ")})`)
        .join(",\n")};`,
    );
  }
  return lines.join("\n");
}

/** 5,000 houses and cards, 18,000 persons (a head each, the rest spread over the cards), 6,000 vehicles. */
const COUNTS =
  "SELECT (SELECT COUNT(*) FROM family_cards WHERE id LIKE 'bench-%') AS kk, (SELECT COUNT(*) FROM family_members WHERE id LIKE 'bench-%') AS persons, (SELECT COUNT(*) FROM vehicles WHERE id LIKE 'bench-%') AS vehicles";

async function seedRegistry(database) {
  // A second run finds the bench's rows complete and writes nothing (the statements are INSERT OR IGNORE anyway).
  const [have] = await queryLocal(database, COUNTS);
  if (have.kk >= FAMILIES && have.persons >= PERSONS && have.vehicles >= VEHICLES) {
    return { counts: await totals(database) };
  }
  const now = new Date().toISOString();
  const units = [];
  const cards = [];
  const members = [];
  const cars = [];
  for (let f = 0; f < FAMILIES; f++) {
    const block = `${String.fromCharCode(65 + (f % 20))}${1 + Math.floor(f / 1000)}`;
    units.push([
      `bench-unit-${pad(f, 5)}`,
      block,
      String(f + 1),
      -6.91 - f * 1e-5,
      107.6 + (f % 50) * 1e-4,
      "pemilik",
      now,
    ]);
    const head = `${MEN[f % 12]} ${SURNAMES[f % 16]} ${f}`;
    cards.push([
      `bench-kk-${pad(f, 5)}`,
      `3273${pad(f, 12)}`,
      `bench-unit-${pad(f, 5)}`,
      head,
      nik(f * 4, "L"),
      "aktif",
      now,
    ]);
  }
  for (let p = 0; p < PERSONS; p++) {
    const f = p < FAMILIES ? p : p % FAMILIES;
    const sex = p < FAMILIES || p % 2 === 0 ? "L" : "P";
    const name =
      p < FAMILIES ? cards[f][3] : `${(sex === "L" ? MEN : WOMEN)[p % 12]} ${SURNAMES[f % 16]} ${p}`;
    const birth = `19${pad(40 + (p % 60), 2)}-${pad((p % 12) + 1, 2)}-${pad((p % 28) + 1, 2)}`;
    members.push([
      `bench-km-${pad(p, 6)}`,
      `bench-kk-${pad(f, 5)}`,
      name,
      p < FAMILIES ? cards[f][4] : `9${pad(p, 15)}`,
      p < FAMILIES ? "kepala_keluarga" : p % 3 === 0 ? "istri" : "anak",
      sex,
      birth,
      p % 9 === 0 ? "kristen" : "islam",
      "tetap",
      now,
    ]);
  }
  for (let v = 0; v < VEHICLES; v++) {
    cars.push([
      `bench-veh-${pad(v, 5)}`,
      `bench-kk-${pad(v % FAMILIES, 5)}`,
      `D ${1000 + v} ${["AB", "KJ", "SK", "XY"][v % 4]}`,
      v % 3 ? "motor" : "mobil",
      now,
    ]);
  }
  const sql = [
    rows("units", ["id", "block", "number", "latitude", "longitude", "occupancy", "updated_at"], units),
    rows(
      "family_cards",
      ["id", "kk_number", "unit_id", "head_name", "head_nik", "status", "updated_at"],
      cards,
    ),
    rows(
      "family_members",
      [
        "id",
        "family_card_id",
        "name",
        "nik",
        "relationship",
        "sex",
        "birth_date",
        "religion",
        "residence_status",
        "updated_at",
      ],
      members,
    ),
    rows("vehicles", ["id", "family_card_id", "plate", "kind", "updated_at"], cars),
  ].join("\n");
  await executeLocalSql(database, sql, "bench-registry");
  return { counts: await totals(database) };
}

async function totals(database) {
  const [counts] = await queryLocal(
    database,
    "SELECT (SELECT COUNT(*) FROM family_cards) AS kk, (SELECT COUNT(*) FROM family_members) AS persons, (SELECT COUNT(*) FROM vehicles) AS vehicles",
  );
  return counts;
}

/**
 * A demo member's token (`roles`: their duties; the demo officers live in their RT, so they are
 * residents too), with the live sign-in it names written to the local platform database first.
 */
async function token(sub, roles, tenant) {
  const sid = `bench-${sub}`;
  await executeLocalSql(
    "warga-platform",
    liveSessionStatements([{ sid, userId: sub, tenantId: tenant.id }]).join("\n"),
    "bench-registry-sessions",
  );
  return benchToken({
    secret: devSecret("JWT_SECRET"),
    sub,
    tenant: tenant.slug,
    roles,
    resident: true,
    sid,
    ttl: "10m",
  });
}

const load = (url, headers = {}) =>
  loadRoute({ url, headers, connections: CONNECTIONS, duration: DURATION_S });

/** Resident and peak resident memory of a process (kB), from /proc/<pid>/status (Linux). */
function memoryKb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name) => Number(new RegExp(`^${name}:\\s*(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
  return { rss: field("VmRSS"), hwm: field("VmHWM") };
}

/** Resets the process's peak RSS to its current RSS (Linux: writing 5 to /proc/<pid>/clear_refs). */
function resetPeak(pid) {
  writeFileSync(`/proc/${pid}/clear_refs`, "5");
}

/**
 * One export, end to end: wall time, the workerd process's CPU seconds, and its peak RSS above the RSS
 * it had just before the request (the peak counter is reset first). Local D1 runs in the same process,
 * so the figure includes SQLite's pages read for the export: it bounds the isolate's own memory from above.
 */
async function measureExport(server, url, headers) {
  globalThis.gc?.();
  resetPeak(server.pid);
  const before = memoryKb(server.pid);
  const cpu0 = server.cpu();
  const started = performance.now();
  const res = await fetch(url, { headers });
  let bytes = 0;
  let firstByteMs = null;
  for await (const chunk of res.body) {
    firstByteMs ??= performance.now() - started;
    bytes += chunk.byteLength;
  }
  const ms = performance.now() - started;
  if (res.status !== 200) {
    throw new Error(`${url} answered ${res.status}`);
  }
  const after = memoryKb(server.pid);
  return {
    ms,
    firstByteMs,
    cpuMs: (server.cpu() - cpu0) * 1000,
    peakMiB: (after.hwm - before.rss) / 1024,
    bytes,
  };
}

export async function run() {
  ensureDevVars(["wrangler.toml"]);
  // The deploy bundle is built first, while the databases are migrated and seeded.
  const bundling = bundleWorker("wrangler.toml", { script: "scripts/bench/entry.ts" }).then((b) => {
    console.log(`bundled (${b.gzipKiB.toFixed(0)} KiB gzip)`);
    return b;
  });
  await migrateAll({ quiet: true });
  await seed({ slots: slotCountFromConfig() });
  const [{ slot }] = await queryLocal("warga-platform", `SELECT slot FROM tenants WHERE id = '${TENANT.id}'`);
  const database = `warga-tenant-${pad(slot, 2)}`;
  const { counts } = await seedRegistry(database);
  const bundle = await bundling;
  const start = () =>
    startWorkerd({
      bundle,
      persistTo: STATE_DIR,
      vars: { JWT_SECRET: devSecret("JWT_SECRET"), LOG_LEVEL: "warn" },
    });
  const sek = {
    Authorization: `Bearer ${await token("seed-user-sekretaris-rt01", ["sekretaris"], TENANT)}`,
  };
  let server = await start();
  try {
    const kk = `${server.url}/api/kependudukan/kk`;
    const targets = {
      bare: { url: `${server.url}/__bare` },
      "bare D1": { url: `${server.url}/__bare-d1` },
      "kk list page": { url: `${kk}?limit=20`, headers: sek },
      "q=name (contains)": { url: `${kk}?q=Nugroho`, headers: sek },
      "q=NIK prefix": { url: `${kk}?q=327311`, headers: sek },
      "q=KK prefix": { url: `${kk}?q=32730000012`, headers: sek },
      "q=plate": { url: `${kk}?q=${encodeURIComponent("D 1234")}`, headers: sek },
      "q=block": { url: `${kk}?q=C2`, headers: sek },
      "q=no match": { url: `${kk}?q=Tidakada`, headers: sek },
      statistik: { url: `${server.url}/api/kependudukan/statistik`, headers: sek },
    };
    // The bare routes stay whenever a route is measured: every ratio is over them, in the same run.
    for (const name of Object.keys(targets)) {
      const part = name === "statistik" ? "stats" : name.startsWith("bare") ? null : "search";
      const wanted = part ? PARTS.includes(part) : PARTS.includes("search") || PARTS.includes("stats");
      if (!wanted) {
        delete targets[name];
      }
    }
    for (const [name, t] of Object.entries(targets)) {
      const res = await fetch(t.url, { headers: t.headers });
      if (res.status !== 200) {
        throw new Error(`${name} answered ${res.status}: ${await res.text()}`);
      }
      await load(t.url, t.headers);
    }
    const samples = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, t] of Object.entries(targets)) {
        const cpu0 = server.cpu();
        const r = await load(t.url, t.headers);
        const cpu = server.cpu() - cpu0;
        if (r.non2xx > 0 || r.errors > 0) {
          throw new Error(`${name}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
        }
        samples[name].push({
          p50: r.p50,
          p99: r.p99,
          rps: r.rps,
          cpu,
          n: r.total,
        });
      }
    }
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const stats = Object.fromEntries(
      Object.entries(samples).map(([k, v]) => [
        k,
        {
          p50: mean(v.map((s) => s.p50)),
          p99: mean(v.map((s) => s.p99)),
          rps: mean(v.map((s) => s.rps)),
          cpuMs: (v.reduce((a, s) => a + s.cpu, 0) * 1000) / v.reduce((a, s) => a + s.n, 0),
        },
      ]),
    );
    console.log(
      `\nRegistry on workerd ${server.runtime}: ${counts.kk} KK, ${counts.persons} persons, ${counts.vehicles} vehicles (${CONNECTIONS} connections, ${ROUNDS}×${DURATION_S}s each, interleaved)`,
    );
    console.log("route                       p50 ms   p99 ms    req/s   CPU ms   p50/bare  p50/bare D1");
    for (const [name, s] of Object.entries(stats)) {
      if (!(s.rps > 0)) {
        console.log(`${name.padEnd(26)} no answer within the ${DURATION_S} s windows`);
        continue;
      }
      console.log(
        `${name.padEnd(26)} ${s.p50.toFixed(1).padStart(7)} ${s.p99.toFixed(1).padStart(8)} ${s.rps.toFixed(0).padStart(8)} ${s.cpuMs.toFixed(2).padStart(8)} ${(stats.bare.p50 > 0 ? (s.p50 / stats.bare.p50).toFixed(2) : "-").padStart(10)} ${(s.p50 / stats["bare D1"].p50).toFixed(2).padStart(12)}`,
      );
    }
    // Each format on a fresh workerd: the first export's peak is not hidden by heap the other one left.
    const exports = {};
    for (const format of PARTS.includes("export") ? ["xlsx", "csv"] : []) {
      await server.mf.dispose();
      server = await start();
      const url = `${server.url}/api/kependudukan/export?format=${format}`;
      await (await fetch(`${server.url}/api/kependudukan/kk?limit=20`, { headers: sek })).arrayBuffer();
      const runs = [];
      for (let i = 0; i < 3; i++) {
        runs.push(await measureExport(server, url, sek));
      }
      const best = runs.reduce((a, b) => (b.ms < a.ms ? b : a));
      exports[format] = {
        ms: best.ms,
        firstByteMs: best.firstByteMs,
        cpuMs: Math.min(...runs.map((r) => r.cpuMs)),
        peakMiB: Math.max(...runs.map((r) => r.peakMiB)),
        firstPeakMiB: runs[0].peakMiB,
        bytes: best.bytes,
      };
      const e = exports[format];
      console.log(
        `export ${format}: best of 3 ${e.ms.toFixed(0)} ms end to end (first byte ${e.firstByteMs.toFixed(0)} ms), CPU ${e.cpuMs.toFixed(0)} ms, ` +
          `peak RSS +${e.peakMiB.toFixed(1)} MiB (first export on a fresh isolate +${e.firstPeakMiB.toFixed(1)} MiB; Worker limit 128 MiB), ${(e.bytes / 1024).toFixed(0)} KiB`,
      );
    }
    console.log(
      "peak RSS: the workerd process's VmHWM over its VmRSS just before the request (/proc/<pid>/status, peak reset through clear_refs);\n" +
        "local D1 runs in that process, so the figure includes SQLite's pages: an upper bound on the isolate's own memory.",
    );
    return { stats, exports };
  } finally {
    await server.stop();
  }
}
