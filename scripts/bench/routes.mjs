// Every read route at a real community's size (issue 32, items 1 and 2): `npm run bench -- routes`.
//
// Two fresh states, each on the bench entry served by workerd directly (scripts/lib/workerd.mjs):
// - the large RT (scripts/bench/routes-data.mjs): the dev seed, then RT 01 grown to 5,000 KK, 18,000
//   persons, 36 months of dues for 2,000 houses, the cash book, letters, complaints, polls, news, guests
//   and listings;
// - an RW with 20 RTs (scripts/bench/hierarchy.mjs's seed), for the routes only an RW answers.
// The operations come from the running API's own /openapi.json: every GET that a tenant member may call
// (the access manifests in test/modules/*/access.ts say who; read as text, the first staff role they
// allow, else the resident), on its first page, one detail with a real id, and each documented filter
// once. A new GET route therefore appears in the table without touching the bench; one the bench cannot
// call (no id found, a filter that answers 4xx) is a row that says so.
//
// Per row: CPU ms per request of the workerd process (its threads' run time in /proc over the row's own
// load, to the nanosecond; local D1 runs in that process too, as in the api suite), the least of five
// rounds taken in five passes over the whole table (backwards and forwards in turn, after one pass that
// warms every route and is not counted), p50 and p99 of that round, the rows of the first answer, and
// the goal, judged on what the row adds over its floor (issue 49): the bare D1 session read
// (`/__bare-d1-session`, the irreducible part of a tenant read) measured on the same server, the same
// way, before the first row, every few rows and after the last of each pass, each row taking the median
// of the floors nearest it in a pass and the median of those over the passes. Load stretches a row and
// its floor alike; the machine's own drift over seconds does not, and a row within about a tenth of its
// line can read either way (ADR 0015, ninth pass). Lists, details, searches and "mine" add at
// most 3 floors (≤ 5 ms on a quiet machine, where the floor is ~1.3 ms); aggregates at most 7 (≤ 10 ms);
// exports and PDFs stay judged by CPU and peak memory inside a Worker's 128 MB and 30 s of CPU (the
// platform's own limits). Sorted by CPU, heaviest first.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root, TEST_SECRETS } from "../lib/dev-server.mjs";
import { quantile } from "../lib/load.mjs";
import { declaredSlots } from "./d1.mjs";
import { bestOf, FLOOR_PATHS, floorNear, overFloor } from "./floors.mjs";
import { CHILDREN, rwToken, seedRw, startRwServer } from "./hierarchy.mjs";
import { LARGE_RT, SIZES, seedLargeRt } from "./routes-data.mjs";
import { measureAlone, startBenchWorkerd } from "./server.mjs";
import { benchToken, liveSessionStatements } from "./tokens.mjs";

/** Requests per round of a row (`BENCH_REQUESTS`). */
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 30);
/**
 * Passes over every row (`BENCH_ROW_ROUNDS`), each a round of every row with the floor between them; a
 * row's figure is the least of its rounds, minutes apart: what disturbs a round of CPU (a burst of the
 * machine's other work, a garbage collection owed by the row before, a storage flush) only ever adds to
 * it, so the least round is the route's own cost, and a disturbance has to land in all five to move it.
 */
const ROW_ROUNDS = Number(process.env.BENCH_ROW_ROUNDS ?? 5);
/**
 * Passes before them that are not counted: the code of every route is warm (V8 tiers a function up
 * after many calls), so the first counted round of a row is not its first hundred calls. Measured: the
 * same rows read 15–25 % more CPU in the first passes of twelve than in the last ones.
 */
const WARM_PASSES = 1;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 2);
/** Sequential runs of each export or PDF (each measured alone: CPU and the process's peak memory). */
const HEAVY_RUNS = Number(process.env.BENCH_HEAVY_RUNS ?? (process.env.BENCH_SMOKE === "1" ? 1 : 2));
const SMOKE = process.env.BENCH_SMOKE === "1";
/** `BENCH_ONLY=/api/iuran,/summary` measures only operations whose path contains one of those texts. */
const ONLY = process.env.BENCH_ONLY;

const LIMITS = { memoryMiB: 128, heavyCpuMs: 30_000 };
/** What a row may add over its floor, in floors. */
const ALLOWANCE = { read: 3, aggregate: 7 };
/** Rows between two measurements of the floor. */
const FLOOR_EVERY = 8;
/** The middle value (the lower of the two middle ones for an even count). */
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const FLOOR_PATH = FLOOR_PATHS.d1Session;
/**
 * Routes that answer figures over the whole community, not rows of it: statistics, arrears, reports,
 * summaries, and the bill preview (`/tagihan/pratinjau`: per dues type, the month's targets counted
 * against the bills already issued, over every house and card).
 */
const AGGREGATE = /statistik|tunggakan|aging|laporan|summary|operasional|dashboard|rekap|pratinjau/;
const HEAVY = /export|\/pdf$|download|data-export/;
const PAGING = new Set(["cursor", "limit", "offset", "page", "pageSize"]);
const STAFF = ["sekretaris", "bendahara", "admin", "satpam"];

/** RT 01's demo accounts (scripts/seed-dev.mjs), by the role a row is called as. */
const ACCOUNTS = {
  sekretaris: { sub: "seed-user-sekretaris-rt01", roles: ["sekretaris"], resident: true },
  bendahara: { sub: "seed-user-bendahara-rt01", roles: ["bendahara"], resident: true },
  admin: { sub: "seed-user-admin-rt01", roles: ["admin"], resident: true },
  satpam: { sub: "seed-user-satpam-rt01", roles: ["satpam"], resident: false },
  warga: { sub: "seed-user-warga1-rt01", roles: [], resident: true },
};

/**
 * Who may call each GET route, read from the access manifests' text (`"GET /path": { who: X, … }`, X a
 * role list constant of test/helpers/access.ts, a literal list, or `user`/`pub`/`platform`).
 */
export function readManifests(dir = root) {
  const helpers = readFileSync(join(dir, "test", "helpers", "access.ts"), "utf8");
  const constants = {};
  for (const m of helpers.matchAll(/export const (\w+) = \[([^\]]*)\] as const/g)) {
    constants[m[1]] = [...m[2].matchAll(/"(\w+)"/g)].map((r) => r[1]);
  }
  const files = readdirSync(join(dir, "test", "modules"), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => join(dir, "test", "modules", d.name, "access.ts"))
    .concat(join(dir, "test", "core", "access.ts"));
  const table = {};
  for (const file of files) {
    let text;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const m of text.matchAll(/"GET (\/[^"]*)":\s*(\{\s*who:\s*(\w+|\[[^\]]*\])[^}]*\}|\w+)/g)) {
      const who = m[3] ?? m[2];
      table[m[1]] = who.startsWith("[")
        ? [...who.matchAll(/"(\w+)"/g)].map((r) => r[1])
        : (constants[who] ?? who);
    }
  }
  return table;
}

/** The role a row is called as: the first staff role the route allows, else the resident. */
export function roleFor(path, who) {
  if (!Array.isArray(who)) {
    return who === "user" ? "warga" : null;
  }
  if (/\/mine$|household/.test(path) && who.includes("warga")) {
    return "warga";
  }
  return STAFF.find((r) => who.includes(r)) ?? (who.includes("warga") ? "warga" : null);
}

/** `/api/x/{id}` → `/api/x/:id`, the manifests' spelling. */
const manifestKey = (path) => path.replace(/\{(\w+)\}/g, ":$1");

/** The class of a row and its goal. */
export function kindOf(path) {
  return HEAVY.test(path) ? "heavy" : AGGREGATE.test(path) ? "aggregate" : "read";
}

/**
 * A sample value for a documented query parameter, from its schema and name: an enum's first value; for
 * a pattern, the first of a date, a month, an instant or a year (a year ago for `from`-like names,
 * today otherwise) that it accepts.
 */
export function sampleValue(param, now = new Date()) {
  const schema = param.schema ?? {};
  const options = schema.enum ?? schema.anyOf?.flatMap((s) => s.enum ?? (s.const ? [s.const] : []));
  if (options?.length) {
    return String(options[0]);
  }
  if (schema.type === "boolean") {
    return "true";
  }
  const name = param.name;
  const jakarta = new Date(now.getTime() + 7 * 3_600_000);
  const past = /^(from|since|start|dari)/i.test(name);
  const day = new Date(jakarta.getTime() - (past ? 365 * 86_400_000 : 0)).toISOString().slice(0, 10);
  const instant = `${day}T${past ? "00:00:00.000" : "23:59:59.999"}Z`;
  if (schema.pattern) {
    const re = new RegExp(schema.pattern);
    const hit = [day, day.slice(0, 7), instant, day.slice(0, 4)].find((c) => re.test(c));
    if (hit) {
      return hit;
    }
  }
  if (schema.format === "date" || schema.format === "date-time") {
    return schema.format === "date" ? day : instant;
  }
  if (schema.type === "integer" || schema.type === "number") {
    return name === "year" ? day.slice(0, 4) : String(Math.max(1, schema.minimum ?? 1));
  }
  return name === "q" || /search|cari/.test(name) ? "Agus" : "iuran";
}

/** The number of rows an answer carries: its top-level list, or `items`, or the first array inside. */
function rowsOf(body) {
  if (Array.isArray(body)) {
    return body.length;
  }
  if (body && typeof body === "object") {
    for (const key of ["items", "data", "rows", "children", "results"]) {
      if (Array.isArray(body[key])) {
        return body[key].length;
      }
    }
    const first = Object.values(body).find(Array.isArray);
    return first ? first.length : 1;
  }
  return 1;
}

/** The ids of a list's first page (`items[].id` or the top-level array's). */
function idsOf(body) {
  const list = Array.isArray(body) ? body : Array.isArray(body?.items) ? body.items : [];
  return list.map((r) => r?.id ?? r?.slug).filter((v) => typeof v === "string");
}

/** One request measured alone: CPU of the workerd process and its peak RSS over the RSS before it. */
async function measureHeavy(server, url, headers) {
  const r = await measureAlone(server, url, { headers });
  return { status: r.status, ms: r.ms, cpuMs: r.cpuMs, peakMiB: r.peakMiB, bytes: r.bytes.byteLength };
}

/**
 * Every GET operation of the running API's /openapi.json that a tenant member may call, as
 * `{ path, op, who, role }`; `/api/tenant-hierarchy/*` ones marked `rw` (measured on the RW).
 */
async function operations(base) {
  const doc = await (await fetch(`${base}/openapi.json`)).json();
  const manifest = readManifests();
  const ops = [];
  const unknown = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (!item.get || (ONLY && !ONLY.split(",").some((part) => path.includes(part)))) {
      continue;
    }
    const who = manifest[manifestKey(path)];
    if (who === undefined) {
      unknown.push(path);
      continue;
    }
    const role = roleFor(path, who);
    if (role) {
      // The RW's own reads run on the RW with 20 RTs; the rest (an RT's link request too) on the large RT.
      ops.push({ path, op: item.get, role, rw: /^\/api\/tenant-hierarchy\/(summary|children)$/.test(path) });
    }
  }
  return { ops, unknown };
}

/** The URL of an operation with its path parameters filled from the parent list's ids, probed. */
async function resolvePath(base, path, headers, cache) {
  const params = [...path.matchAll(/\{(\w+)\}/g)];
  if (params.length === 0) {
    return path;
  }
  // The parent list of the first parameter: `/api/x/{id}/y` → `/api/x`.
  const parent = path.slice(0, path.indexOf(params[0][0]) - 1);
  if (!cache.has(parent)) {
    const res = await fetch(`${base}${parent}`, { headers });
    cache.set(parent, res.status === 200 ? idsOf(await res.json()) : []);
  }
  if (params.length > 1) {
    return null;
  }
  for (const id of cache.get(parent).slice(0, 20)) {
    const url = path.replace(params[0][0], encodeURIComponent(id));
    const res = await fetch(`${base}${url}`, { headers });
    await res.arrayBuffer();
    if (res.status === 200) {
      return url;
    }
  }
  return null;
}

/** The calls of one operation: the first page (required parameters only), then each filter once. */
function variants(op) {
  const query = (op.parameters ?? []).filter((p) => p.in === "query");
  const required = query.filter((p) => p.required);
  const base = new URLSearchParams(required.map((p) => [p.name, sampleValue(p)]));
  const out = [{ label: "", search: base.toString() }];
  for (const p of query.filter((p) => !p.required && !PAGING.has(p.name))) {
    const s = new URLSearchParams(base);
    s.set(p.name, sampleValue(p));
    out.push({ label: `${p.name}=${s.get(p.name)}`, search: s.toString() });
  }
  return out;
}

/**
 * REQUESTS answers from CONNECTIONS clients in a closed loop: a fixed count rather than a time window,
 * so a slow route on a busy machine still gives a round of the same size.
 */
async function fixedLoad(url, headers) {
  const ms = [];
  let sent = 0;
  let non2xx = 0;
  let errors = 0;
  const client = async () => {
    while (sent < REQUESTS) {
      sent++;
      const started = performance.now();
      try {
        const res = await fetch(url, { headers });
        await res.arrayBuffer();
        if (res.status >= 200 && res.status < 300) {
          ms.push(performance.now() - started);
        } else {
          non2xx++;
        }
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, client));
  return { total: sent, non2xx, errors, p50: quantile(ms, 0.5), p99: quantile(ms, 0.99) };
}

/** One round of fixedLoad on `url`: CPU ms per request of `server` and the answers' latencies. */
async function measureRound(server, url, headers) {
  const cpu0 = server.cpu();
  const r = await fixedLoad(url, headers);
  const cpu = server.cpu() - cpu0;
  if (r.non2xx > 0 || r.errors > 0 || r.total === 0) {
    return { failed: `${r.total} answers under load, ${r.non2xx} non-2xx, ${r.errors} errors` };
  }
  return { cpuMs: (cpu * 1000) / r.total, p50: r.p50, p99: r.p99 };
}

/** A smoke row: two calls, no load, nothing judged (proves the call works at the current schema). */
async function measureSmoke(server, url, headers = {}) {
  const cpu0 = server.cpu();
  const ms = [];
  for (let i = 0; i < 2; i++) {
    const started = performance.now();
    await (await fetch(url, { headers })).arrayBuffer();
    ms.push(performance.now() - started);
  }
  return { cpuMs: ((server.cpu() - cpu0) * 1000) / 2, p50: Math.min(...ms), p99: Math.max(...ms) };
}

/**
 * Measures every call of `ops` on one server, one row each:
 * 1. each call is resolved and answered once, in order (an export or PDF is measured then, alone);
 * 2. WARM_PASSES, then ROW_ROUNDS passes over every loaded row, forwards and backwards in turn, with
 *    the floor measured before the first row, every FLOOR_EVERY rows and after the last of each pass;
 *    a row's CPU is the least of its rounds (`bestOf`), and its floor the median over the passes of the
 *    floors nearest it (`floorNear`). The floor is twenty measurements and their median a steady figure;
 *    a row is five, and the least of them the one a disturbance missed (ADR 0015, ninth pass: of the
 *    pairings tried, the one on which two runs agreed most). A pass takes a few minutes, so a slow phase
 *    of the machine (a burst of other work, a garbage collection owed by the row before) lands in one
 *    round of a row, not in all of them, and a row follows a different row in every other pass.
 */
async function measure(server, ops, tokenFor) {
  const rows = [];
  const parents = new Map();
  for (const { path, op, role } of ops) {
    const headers = { Authorization: `Bearer ${await tokenFor(role)}` };
    const resolved = await resolvePath(server.url, path, headers, parents);
    const kind = kindOf(path);
    if (!resolved) {
      rows.push({ path, label: "", role, kind, skipped: "no id found (parent list empty or not a list)" });
      continue;
    }
    for (const { label, search } of variants(op)) {
      const url = `${server.url}${resolved}${search ? `?${search}` : ""}`;
      const first = await fetch(url, { headers });
      const type = first.headers.get("content-type") ?? "";
      const text = type.includes("json") ? await first.text() : "";
      if (!type.includes("json")) {
        await first.arrayBuffer();
      }
      const row = { path, label, role, kind: type.includes("json") ? kind : "heavy", status: first.status };
      if (first.status !== 200) {
        const problem = text ? JSON.parse(text) : {};
        rows.push({
          ...row,
          skipped: `answered ${first.status}: ${problem.detail ?? problem.title ?? type}`,
        });
        continue;
      }
      row.rows = text ? rowsOf(JSON.parse(text)) : "-";
      if (row.kind === "heavy") {
        const runs = [];
        for (let i = 0; i < HEAVY_RUNS; i++) {
          runs.push(await measureHeavy(server, url, headers));
        }
        row.cpuMs = Math.min(...runs.map((r) => r.cpuMs));
        row.peakMiB = Math.max(...runs.map((r) => r.peakMiB));
        row.p50 = Math.min(...runs.map((r) => r.ms));
        row.p99 = Math.max(...runs.map((r) => r.ms));
        row.bytes = runs[0].bytes;
      } else if (SMOKE) {
        Object.assign(row, await measureSmoke(server, url, headers));
      } else {
        Object.assign(row, { url, headers, rounds: [] });
      }
      rows.push(row);
    }
  }
  const floorUrl = `${server.url}${FLOOR_PATH}`;
  const floorOnce = async () => {
    const r = SMOKE ? await measureSmoke(server, floorUrl) : await measureRound(server, floorUrl, {});
    return r.failed ? Number.NaN : r.cpuMs;
  };
  const passes = [];
  const warm = SMOKE ? 0 : WARM_PASSES;
  for (let pass = 0; pass < warm + (SMOKE ? 1 : ROW_ROUNDS); pass++) {
    const counted = pass >= warm;
    const backwards = pass % 2 === 1;
    const order = rows.map((_, i) => i);
    if (backwards) {
      order.reverse();
    }
    // `at`: how many rows (in the table's order) come before the floor's place in the pass.
    const floors = [{ at: backwards ? rows.length : 0, value: await floorOnce() }];
    let since = 0;
    for (const i of order) {
      const row = rows[i];
      if (!row.url || row.failed) {
        continue;
      }
      if (since >= FLOOR_EVERY) {
        floors.push({ at: backwards ? i + 1 : i, value: await floorOnce() });
        since = 0;
      }
      const r = await measureRound(server, row.url, row.headers);
      since++;
      if (r.failed) {
        row.failed = r.failed;
        continue;
      }
      if (counted) {
        row.rounds.push(r);
      }
    }
    floors.push({ at: backwards ? 0 : rows.length, value: await floorOnce() });
    floors.sort((a, b) => a.at - b.at);
    if (counted) {
      passes.push(floors);
    }
  }
  return rows.map((row, i) => {
    const floorPasses = passes.map((floors) => floorNear(floors, i));
    const floorMs = median(floorPasses);
    const { url: _, headers: __, failed, ...rest } = row;
    if (failed) {
      return { ...rest, rounds: undefined, skipped: failed };
    }
    if (!row.rounds) {
      return { ...rest, floorMs };
    }
    const best = bestOf(row.rounds.map((r) => r.cpuMs));
    const at = row.rounds.find((r) => r.cpuMs === best);
    return {
      ...rest,
      floorMs,
      floorPasses,
      cpuMs: best,
      p50: at.p50,
      p99: at.p99,
      rounds: row.rounds.map((r) => r.cpuMs),
    };
  });
}

/** A judged row's figure in lines: what it adds over its floor over its allowance (≤ 1 is met). */
export function rowLine(row) {
  const allowance = row.kind === "aggregate" ? ALLOWANCE.aggregate : ALLOWANCE.read;
  return (row.cpuMs - row.floorMs) / row.floorMs / allowance;
}

/** The goal of a measured row and whether it is met. */
export function judge(row) {
  if (row.kind === "heavy") {
    const floors = row.floorMs > 0 ? ` = ${(row.cpuMs / row.floorMs).toFixed(0)} floors` : "";
    return {
      text: `≤ ${LIMITS.memoryMiB} MB, ≤ 30 s CPU (peak +${row.peakMiB.toFixed(1)} MiB, ${(row.bytes / 1024).toFixed(0)} KiB, CPU ${row.cpuMs.toFixed(0)} ms${floors})`,
      met: row.peakMiB <= LIMITS.memoryMiB && row.cpuMs <= LIMITS.heavyCpuMs,
    };
  }
  const judged = overFloor({
    figure: row.cpuMs,
    floor: row.floorMs,
    floors: row.kind === "aggregate" ? ALLOWANCE.aggregate : ALLOWANCE.read,
    name: "CPU over the D1 session read",
  });
  const spread =
    row.rounds?.length > 1
      ? `; rounds ${Math.min(...row.rounds).toFixed(2)}–${Math.max(...row.rounds).toFixed(2)} ms`
      : "";
  return { text: `${judged.text}, ${row.kind}${spread}`, met: judged.met };
}

/** Tokens of RT 01's demo accounts, each naming a live sign-in written first. */
async function largeRtTokens(mf) {
  const platform = await mf.getD1Database("PLATFORM_DB");
  const sessions = Object.entries(ACCOUNTS).map(([role, a]) => ({
    sid: `bench-routes-${role}`,
    userId: a.sub,
    tenantId: LARGE_RT.id,
  }));
  await platform.batch(liveSessionStatements(sessions).map((s) => platform.prepare(s)));
  const tokens = {};
  return (role) => {
    const a = ACCOUNTS[role];
    tokens[role] ??= benchToken({
      secret: TEST_SECRETS.JWT_SECRET,
      sub: a.sub,
      tenant: LARGE_RT.slug,
      roles: a.roles,
      resident: a.resident,
      sid: `bench-routes-${role}`,
      ttl: "15m",
    });
    return tokens[role];
  };
}

function print(rows, title) {
  console.log(`\n${title}`);
  const measured = rows.filter((r) => !r.skipped).sort((a, b) => b.cpuMs - a.cpuMs);
  const name = (r) => `GET ${r.path}${r.label ? ` ?${r.label}` : ""}`;
  const width = Math.min(72, Math.max(...rows.map((r) => name(r).length)));
  console.log(
    [
      "operation".padEnd(width),
      "as".padEnd(10),
      "CPU ms".padStart(8),
      "floor".padStart(7),
      "p50 ms".padStart(8),
      "p99 ms".padStart(8),
      "rows".padStart(5),
      "  goal",
    ].join(" "),
  );
  for (const r of measured) {
    r.goal = judge(r);
    console.log(
      [
        name(r).slice(0, width).padEnd(width),
        r.role.padEnd(10),
        r.cpuMs.toFixed(2).padStart(8),
        r.floorMs.toFixed(2).padStart(7),
        r.p50.toFixed(1).padStart(8),
        r.p99.toFixed(1).padStart(8),
        String(r.rows).padStart(5),
        `  ${r.goal.met ? "met    " : "NOT met"}  ${r.goal.text}`,
      ].join(" "),
    );
  }
  for (const r of rows.filter((r) => r.skipped)) {
    console.log(`${name(r).slice(0, width).padEnd(width)} ${r.role.padEnd(10)} not measured: ${r.skipped}`);
  }
  console.log(
    "floor: CPU ms per request of GET /__bare-d1-session on the same server, measured before the first row, every " +
      `${FLOOR_EVERY} rows and after the last of each pass (each row takes the median of the four nearest it in a pass, and the median of those over the passes; a row its least round); goals: what a row adds, in floors.\n` +
      "exports and files: judged against a Worker's 128 MB and 30 s of CPU, the platform's own absolute limits " +
      "(a heavy row sits orders of magnitude under 30 s; its CPU in floors is in the goal text).",
  );
  return measured;
}

export async function run() {
  const slots = declaredSlots();
  const persistTo = mkdtempSync(join(tmpdir(), "warga-bench-routes-"));
  const server = await startBenchWorkerd({ persistTo, vars: { LOG_LEVEL: "info" } });
  let measured = [];
  let skipped = 0;
  try {
    const { ops, unknown } = await operations(server.url);
    const rtOps = ops.filter((o) => !o.rw);
    if (rtOps.length) {
      const t0 = performance.now();
      const counts = await seedLargeRt(server.mf, slots);
      console.log(
        `large RT seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s: ${JSON.stringify(counts)} (asked: ${JSON.stringify(SIZES)})`,
      );
    }
    if (unknown.length) {
      console.log(
        `GET routes of /openapi.json with no line in any access manifest (not called): ${unknown.join(", ")}`,
      );
    }
    if (rtOps.length) {
      const tokenFor = await largeRtTokens(server.mf);
      const rows = await measure(server, rtOps, tokenFor);
      measured = print(
        rows,
        `Every GET a member may call, large RT on workerd ${server.runtime}: ${ROW_ROUNDS} passes of ${REQUESTS} requests from ${CONNECTIONS} clients a row, the least round ` +
          `(exports and PDFs: ${HEAVY_RUNS} sequential runs, best CPU and worst peak); CPU ms is the workerd process's per request`,
      );
      skipped += rows.filter((r) => r.skipped).length;
    }
    const rwOps = ops.filter((o) => o.rw);
    if (rwOps.length) {
      const rw = await startRwServer();
      try {
        const seeded = await seedRw(rw.mf);
        const rwRows = await measure(rw, rwOps, () => rwToken());
        measured = measured.concat(
          print(
            rwRows,
            `The RW's own reads, RW with ${CHILDREN} RTs (${seeded.persons} persons, ${seeded.bills} dues bills)`,
          ),
        );
        skipped += rwRows.filter((r) => r.skipped).length;
      } finally {
        await rw.stop();
      }
    }
  } finally {
    await server.stop();
    // `BENCH_KEEP_STATE=1` leaves the large RT in place (its path printed), to profile a route on it
    // (`PROFILE_STATE=… node scripts/profile-route.mjs path`) or read it with sqlite3.
    if (process.env.BENCH_KEEP_STATE) {
      console.log(`state kept: ${persistTo}`);
    } else {
      rmSync(persistTo, { recursive: true, force: true });
    }
  }
  // `BENCH_ROWS_OUT=run.json` keeps the judged rows, for `node scripts/bench/agree.mjs` to set two runs
  // side by side.
  if (process.env.BENCH_ROWS_OUT) {
    writeFileSync(
      process.env.BENCH_ROWS_OUT,
      JSON.stringify(
        measured.map(({ path, label, role, kind, cpuMs, floorMs, rounds, floorPasses, goal }) => ({
          path,
          label,
          role,
          kind,
          cpuMs,
          floorMs,
          rounds,
          floorPasses,
          line: kind === "heavy" ? null : rowLine({ kind, cpuMs, floorMs }),
          met: goal.met,
          goal: goal.text,
        })),
      ),
    );
  }
  const missed = measured.filter((r) => !r.goal.met);
  if (SMOKE) {
    console.log(
      `smoke: ${measured.length} calls answered, ${skipped} not measured; sizes and figures not judged`,
    );
    return { measured, skipped };
  }
  console.log(
    `${measured.length - missed.length} goals met, ${missed.length} not met, ${skipped} calls not measured` +
      (missed.length
        ? `; over their goal: ${missed.map((r) => `${r.path}${r.label ? `?${r.label}` : ""}`).join(", ")}`
        : ""),
  );
  return { measured, skipped };
}
