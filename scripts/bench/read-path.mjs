// Where an authenticated tenant read's CPU goes (`npm run bench -- read-path`): the issue 18 tenant read
// (`GET /api/kependudukan/units/:id`) beside the same unit row read with less and less around it, on
// the workerd the API bench uses, rounds interleaved, CPU per request from /proc over each load:
// - bare Hono route (no I/O), bare D1 read (`SELECT 1`);
// - the unit row by hand-written SQL (`/__bare-row/sql`): the row's own cost over `SELECT 1`;
// - the same SQL through a D1 session (`/__bare-row/session`), as every tenant route reads (ADR 0036);
// - the row through drizzle building its query on every request, as every route did before `rowById`;
// - the row through `rowById` (drizzle builds its SQL once per table and isolate);
// - the row as the route reads it (`/__bare-row/guarded`): in a batch behind the slot owner's check;
// - the bare route plus one line of the access line's shape: what the line costs;
// - the whole route: authentication, tenant, validation, headers, the access line at `info`, `rowById`.
// The difference between two rows of one run is what the layer between them costs. BENCH_LOG_LEVEL=warn
// runs without the access line, to see its share.
//
// Then the route's own JavaScript, D1 taken out: each round runs the route JS_COST_N times inside the
// isolate against a tape of the D1 answers its first runs got (`/__js-cost`, scripts/bench/entry.ts), and
// the same for the bare route. Over sockets and D1 a round of the same route varies by a third, the taped
// loop's rounds by about a tenth; to tell a change of a few hundredths of a millisecond, compare two
// builds side by side (scripts/bench/js-cost-ab.mjs).

import { load } from "../lib/load.mjs";
import { signIn } from "./api-routes.mjs";
import { jsCostRound, median } from "./js-cost.mjs";
import { prepareBenchState, startBenchWorkerd } from "./server.mjs";

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
/** Requests per round of the taped loop (`BENCH_JS_COST_N`). */
const JS_COST_N = Number(process.env.BENCH_JS_COST_N ?? 3000);

/**
 * The route's JavaScript per request with D1's answers taped, and the bare route's, ROUNDS rounds
 * interleaved: CPU of the workerd process over each loop, over its requests.
 */
async function jsCost(server, token) {
  const paths = { bare: "/__bare", route: "/api/kependudukan/units/seed-unit-rt01-a1" };
  const cpu = { bare: [], route: [] };
  for (let round = -1; round < ROUNDS; round++) {
    for (const [key, path] of Object.entries(paths)) {
      const perRequest = await jsCostRound(server, { path, n: JS_COST_N, token });
      // Round -1 warms the loop (and records the tape); a statement missing from the tape is run for real.
      if (round >= 0) {
        cpu[key].push(perRequest);
      }
    }
  }
  const bare = median(cpu.bare);
  const route = median(cpu.route);
  console.log(
    `The route's own JavaScript, D1 taped (${ROUNDS}×${JS_COST_N} requests in the isolate, medians): ` +
      `route ${route.toFixed(3)} ms, bare route ${bare.toFixed(3)} ms, the API's code ${(route - bare).toFixed(3)} ms ` +
      `(rounds ${cpu.route.map((v) => v.toFixed(3)).join(", ")})`,
  );
}

export async function run() {
  await prepareBenchState();
  const server = await startBenchWorkerd({
    vars: { LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "info" },
  });
  try {
    const base = server.url;
    const token = await signIn(base, "sekretaris.rt01@warga.test");
    const rows = [
      ["bare", "GET /__bare (bare Hono route)", { url: `${base}/__bare` }],
      ["log", "the bare route plus one access line", { url: `${base}/__bare-log` }],
      ["bareD1", "GET /__bare-d1 (SELECT 1)", { url: `${base}/__bare-d1` }],
      ["sql", "unit row, hand-written SQL", { url: `${base}/__bare-row/sql` }],
      ["session", "unit row, hand-written SQL, D1 session", { url: `${base}/__bare-row/session` }],
      ["guarded", "unit row, D1 session, behind the owner check", { url: `${base}/__bare-row/guarded` }],
      ["drizzle", "unit row, drizzle query built per request", { url: `${base}/__bare-row/drizzle` }],
      ["rowById", "unit row, rowById (SQL built once per table)", { url: `${base}/__bare-row/rowById` }],
      [
        "route",
        "GET unit (the whole authenticated route)",
        {
          url: `${base}/api/kependudukan/units/seed-unit-rt01-a1`,
          headers: { Authorization: `Bearer ${token}` },
        },
      ],
    ];
    const totals = Object.fromEntries(rows.map(([key]) => [key, { cpu: 0, n: 0, p50: [] }]));
    for (const [key, , target] of rows) {
      const res = await fetch(target.url, { headers: target.headers });
      if (res.status !== 200) {
        throw new Error(`${key}: ${res.status} ${await res.text()}`);
      }
      await load({ ...target, connections: CONNECTIONS, duration: 1 });
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const [key, , target] of rows) {
        const cpu0 = server.cpu();
        const r = await load({ ...target, connections: CONNECTIONS, duration: DURATION_S });
        const cpu = server.cpu() - cpu0;
        if (r.non2xx > 0 || r.errors > 0) {
          throw new Error(`${key}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
        }
        totals[key].cpu += cpu;
        totals[key].n += r.total;
        totals[key].p50.push(r.p50);
      }
    }
    const stat = Object.fromEntries(
      Object.entries(totals).map(([k, t]) => [k, { cpuMs: (t.cpu * 1000) / t.n, p50: median(t.p50) }]),
    );
    console.log(
      `\nAn authenticated tenant read taken apart: workerd ${server.runtime} (pid ${server.pid}), ` +
        `${CONNECTIONS} connections, ${ROUNDS}×${DURATION_S}s per row, interleaved; p50 is the median of the rounds' p50s`,
    );
    console.log(
      [
        "row".padEnd(44),
        "p50 ms".padStart(7),
        "CPU ms".padStart(7),
        "CPU/bare D1".padStart(12),
        "  CPU added over",
      ].join(" "),
    );
    // What each row adds to: the access line over the bare route, the unit row's SQL over SELECT 1, the
    // session and both drizzle ways over the SQL, the owner check over the session, the route over rowById
    // (which it uses).
    const over = {
      log: "bare",
      bareD1: "bare",
      sql: "bareD1",
      session: "sql",
      guarded: "session",
      drizzle: "sql",
      rowById: "sql",
      route: "rowById",
    };
    for (const [key, name] of rows) {
      const s = stat[key];
      const delta = over[key] ? s.cpuMs - stat[over[key]].cpuMs : 0;
      const added = over[key] ? `  ${delta >= 0 ? "+" : ""}${delta.toFixed(3)} (over ${over[key]})` : "";
      console.log(
        [
          name.padEnd(44),
          s.p50.toFixed(2).padStart(7),
          s.cpuMs.toFixed(3).padStart(7),
          (s.cpuMs / stat.bareD1.cpuMs).toFixed(2).padStart(12),
          added,
        ].join(" "),
      );
    }
    const saved = stat.drizzle.cpuMs - stat.rowById.cpuMs;
    console.log(
      `rowById saves ${saved.toFixed(3)} ms of CPU per read over drizzle building the query each time ` +
        `(${((saved / stat.route.cpuMs) * 100).toFixed(0)}% of the whole route's CPU); ` +
        `the route over the bare D1 read: CPU ${(stat.route.cpuMs / stat.bareD1.cpuMs).toFixed(2)}×, ` +
        `p50 ${(stat.route.p50 / stat.bareD1.p50).toFixed(2)}×`,
    );
    await jsCost(server, token);
  } finally {
    await server.stop();
  }
}
