// The population registry at 5,000 KK / 18,000 persons / 6,000 vehicles in RT 01's database, on
// workerd served directly (scripts/lib/workerd.mjs, ADR 0015): the KK list and its search (member
// name, NIK prefix, KK prefix, plate, block) as p50 ratios over the bare routes served by the same
// isolate in the same run, with the workerd process's CPU per request; and the whole-registry export
// (.xlsx and .csv), each on a fresh workerd: time end to end and to the first byte, CPU, and peak
// memory as the workerd process's peak RSS above its RSS just before the request.
import { readFileSync, writeFileSync } from "node:fs";
import { devSecret } from "../lib/dev-vars.mjs";
import { load as loadRoute } from "../lib/load.mjs";
import { executeLocalSql, queryLocal } from "../lib/wrangler.mjs";
import { benchBundle, prepareBenchState, startBenchWorkerd } from "./server.mjs";
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

/**
 * Person i's NIK: digits 7–12 their birth date as the generator writes it (day + 40 for a woman), so an
 * import of the exported registry passes its checks; distinct for every i below 5 million.
 */
function nik(i, sex) {
  const day = (i % 28) + 1 + (sex === "P" ? 40 : 0);
  const month = (i % 12) + 1;
  const year = 40 + (i % 60);
  return `3273${pad(10 + (i % 80), 2)}${pad(day, 2)}${pad(month, 2)}${pad(year % 100, 2)}${pad((i % 9999) + 1, 4)}`;
}

function rows(table, columns, values) {
  const statements = [];
  for (let i = 0; i < values.length; i += 200) {
    statements.push(
      `INSERT OR IGNORE INTO ${table} (${columns.join(", ")}) VALUES ${values
        .slice(i, i + 200)
        .map((v) => `(${v.map(q).join(", ")})`)
        .join(",\n")}`,
    );
  }
  return statements;
}

/** 5,000 houses and cards, 18,000 persons (a head each, the rest spread over the cards), 6,000 vehicles. */
const COUNTS =
  "SELECT (SELECT COUNT(*) FROM family_cards WHERE id LIKE 'bench-%') AS kk, (SELECT COUNT(*) FROM family_members WHERE id LIKE 'bench-%') AS persons, (SELECT COUNT(*) FROM vehicles WHERE id LIKE 'bench-%') AS vehicles";

/**
 * The registry's rows as INSERT OR IGNORE statements (fixed ids, so a second run writes nothing): `units`
 * houses (one per card unless fewer are asked, then the cards share them), `families` cards, `persons`
 * (a head each, the rest spread over the cards), `vehicles`. Ids are `<prefix>-unit-<n>` and so on,
 * zero-padded unless `padIds` is false (the routes bench joins them to ids built in SQL).
 */
export function registryStatements({
  families,
  persons,
  vehicles,
  units = families,
  prefix = "bench",
  padIds = true,
}) {
  const now = new Date().toISOString();
  const id = (kind, i, width) => `${prefix}-${kind}-${padIds ? pad(i, width) : i}`;
  const unitRows = [];
  const cards = [];
  const members = [];
  const cars = [];
  for (let u = 0; u < units; u++) {
    const block = `${String.fromCharCode(65 + (u % 20))}${1 + Math.floor(u / 1000)}`;
    unitRows.push([
      id("unit", u, 5),
      block,
      String(u + 1),
      -6.91 - u * 1e-5,
      107.6 + (u % 50) * 1e-4,
      "pemilik",
      now,
    ]);
  }
  for (let f = 0; f < families; f++) {
    const head = `${MEN[f % 12]} ${SURNAMES[f % 16]} ${f}`;
    cards.push([
      id("kk", f, 5),
      `3273${pad(f, 12)}`,
      id("unit", f % units, 5),
      head,
      nik(f, "L"),
      "aktif",
      now,
    ]);
  }
  for (let p = 0; p < persons; p++) {
    const f = p < families ? p : p % families;
    const sex = p < families || p % 2 === 0 ? "L" : "P";
    const name =
      p < families ? cards[f][3] : `${(sex === "L" ? MEN : WOMEN)[p % 12]} ${SURNAMES[f % 16]} ${p}`;
    const birth = `19${pad(40 + (p % 60), 2)}-${pad((p % 12) + 1, 2)}-${pad((p % 28) + 1, 2)}`;
    members.push([
      id("km", p, 6),
      id("kk", f, 5),
      name,
      nik(p, sex),
      p < families ? "kepala_keluarga" : p % 3 === 0 ? "istri" : "anak",
      sex,
      birth,
      p % 9 === 0 ? "kristen" : "islam",
      "tetap",
      now,
    ]);
  }
  for (let v = 0; v < vehicles; v++) {
    cars.push([
      id("veh", v, 5),
      id("kk", v % families, 5),
      `D ${1000 + v} ${["AB", "KJ", "SK", "XY"][v % 4]}`,
      v % 3 ? "motor" : "mobil",
      now,
    ]);
  }
  return [
    ...rows("units", ["id", "block", "number", "latitude", "longitude", "occupancy", "updated_at"], unitRows),
    ...rows(
      "family_cards",
      ["id", "kk_number", "unit_id", "head_name", "head_nik", "status", "updated_at"],
      cards,
    ),
    ...rows(
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
    ...rows("vehicles", ["id", "family_card_id", "plate", "kind", "updated_at"], cars),
  ];
}

async function seedRegistry(database) {
  // A second run finds the bench's rows complete and writes nothing (the statements are INSERT OR IGNORE anyway).
  const [have] = await queryLocal(database, COUNTS);
  if (have.kk >= FAMILIES && have.persons >= PERSONS && have.vehicles >= VEHICLES) {
    return { counts: await totals(database) };
  }
  const statements = registryStatements({ families: FAMILIES, persons: PERSONS, vehicles: VEHICLES });
  await executeLocalSql(database, statements.map((s) => `${s};`).join("\n"), "bench-registry");
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
  // The deploy bundle is built while the databases are migrated and seeded.
  const bundling = benchBundle();
  await prepareBenchState();
  const [{ slot }] = await queryLocal("warga-platform", `SELECT slot FROM tenants WHERE id = '${TENANT.id}'`);
  const database = `warga-tenant-${pad(slot, 2)}`;
  const { counts } = await seedRegistry(database);
  await bundling;
  const start = () =>
    startBenchWorkerd({
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
