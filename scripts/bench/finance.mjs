// Finance (issue 14) on the bench entry served by workerd, against the seeded RT 02 with 2,000 bench houses
// and 24 months of dues history (48,000 bills written once by fixed ids):
// - month-end generation for 2,000 units: wall time per run and the D1 statements it takes; a repeated
//   run (the unique key makes it a no-op) timed too;
// - GET /api/iuran/tunggakan p50 over a bare route of the same isolate;
// - the ledger check: the cash book walked page by page, its running balance continuous and equal to
//   the closing balance and to the SQL sum of entries; every dues payment matched by its cash entry.
import { devSecret } from "../lib/dev-vars.mjs";
import { load as loadRoute } from "../lib/load.mjs";
import { refreshCashMonths, refreshDuesBalances, runAll } from "./d1.mjs";
import { prepareBenchState, startBenchWorkerd } from "./server.mjs";

const UNITS = Number(process.env.BENCH_UNITS ?? 2_000);
const MONTHS = 24;
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const TENANT = {
  slug: "rt-02-sukamaju",
  admin: "seed-user-admin-rt02",
  bendahara: "seed-user-bendahara-rt02",
};
const TYPE = { id: "bench-dues-kebersihan", name: "Iuran kebersihan (bench)", amount: 25_000 };
const q = (v) =>
  v === null ? "NULL" : typeof v === "number" ? String(v) : `'${String(v).replace(/'/g, "''")}'`;

function periods(count) {
  const now = new Date(Date.now() + 7 * 3_600_000);
  const out = [];
  for (let back = count; back >= 1; back--) {
    const m = now.getUTCFullYear() * 12 + now.getUTCMonth() - back;
    out.push(`${Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, "0")}`);
  }
  return out;
}

/** Rows of one query through a D1 binding. */
const query = async (db, sql) => (await db.prepare(sql).all()).results;

/** The bench tenant's database, through the running server's binding for its slot. */
async function tenantDatabase(mf) {
  const platform = await mf.getD1Database("PLATFORM_DB");
  const row = await platform.prepare("SELECT slot FROM tenants WHERE slug = ?").bind(TENANT.slug).first();
  return mf.getD1Database(`TENANT_DB_${String(row.slot).padStart(2, "0")}`);
}

/**
 * 2,000 houses and 24 months of bills: 9 in 10 paid (with their payment and cash entry), the rest owed.
 * Generated inside SQLite (recursive CTEs, fixed ids, INSERT OR IGNORE): five statements, not 130,000.
 */
async function seedHistory(db) {
  const now = new Date().toISOString();
  const first = `${periods(MONTHS)[0]}-01`;
  // D1 caps compound SELECTs, so the months come from a recursive CTE too.
  const months = `WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < ${MONTHS - 1})
    SELECT strftime('%Y-%m', date(${q(first)}, '+' || i || ' months')) AS p FROM k`;
  const nums = `WITH RECURSIVE n(u) AS (SELECT 1 UNION ALL SELECT u + 1 FROM n WHERE u < ${UNITS})`;
  const sql = [
    `INSERT OR IGNORE INTO dues_types (id, name, basis, start_period, active, rates, exempt_unit_ids, updated_at) VALUES (${q(TYPE.id)}, ${q(TYPE.name)}, 'unit', '2000-01', 1, ${q(JSON.stringify([{ from: "2000-01", amount: TYPE.amount }]))}, '[]', ${q(now)});`,
    `${nums} INSERT OR IGNORE INTO units (id, block, number, updated_at) SELECT 'bench-unit-' || u, 'BENCH', CAST(u AS TEXT), ${q(now)} FROM n;`,
    `${nums}, m(p) AS (${months})
     INSERT OR IGNORE INTO dues_bills (id, type_id, type_name, period, basis, target_id, unit_id, amount, paid_amount, status, last_payment_id, updated_at)
     SELECT 'bench-bill-' || p || '-' || u, ${q(TYPE.id)}, ${q(TYPE.name)}, p, 'unit', 'bench-unit-' || u, 'bench-unit-' || u, ${TYPE.amount},
       CASE WHEN (u + CAST(substr(p, 6) AS INTEGER)) % 10 = 0 THEN 0 ELSE ${TYPE.amount} END,
       CASE WHEN (u + CAST(substr(p, 6) AS INTEGER)) % 10 = 0 THEN 'belum' ELSE 'lunas' END,
       CASE WHEN (u + CAST(substr(p, 6) AS INTEGER)) % 10 = 0 THEN NULL ELSE 'bench-bill-' || p || '-' || u || '-pay' END,
       ${q(now)}
     FROM n, m;`,
    `INSERT OR IGNORE INTO cash_entries (id, kind, category, amount, date, note, source, source_id)
     SELECT id || '-kas', 'masuk', type_name, amount, period || '-10', 'Iuran ' || period, 'iuran', id || '-pay'
     FROM dues_bills WHERE type_id = ${q(TYPE.id)} AND status = 'lunas';`,
    `INSERT OR IGNORE INTO dues_payments (id, bill_id, amount, method, paid_at, cash_entry_id)
     SELECT id || '-pay', id, amount, 'tunai', period || '-10T03:00:00.000Z', id || '-kas'
     FROM dues_bills WHERE type_id = ${q(TYPE.id)} AND status = 'lunas';`,
  ];
  await runAll(db, sql);
  await refreshDuesBalances(db, "bench-bill-%");
  await refreshCashMonths(db);
  return (await db.prepare("SELECT COUNT(*) AS n FROM dues_bills").first()).n;
}

const load = (url, headers = {}) =>
  loadRoute({ url, headers, connections: CONNECTIONS, duration: DURATION_S });

async function call(url, auth, body) {
  const res = await fetch(url, {
    method: body ? "POST" : "GET",
    headers: { ...auth, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (!res.ok) {
    throw new Error(`${url}: ${res.status} ${JSON.stringify(json)}`);
  }
  return json;
}

/** The cash book walked page by page must agree with itself and with the entries. */
async function ledgerCheck(base, auth, db) {
  let cursor = "";
  let running = null;
  let sum = 0;
  let closing = 0;
  let pages = 0;
  do {
    const page = await call(`${base}/api/kas?limit=100${cursor ? `&cursor=${cursor}` : ""}`, auth);
    closing = page.closingBalance;
    let previous = running ?? page.openingBalance;
    for (const e of page.items) {
      sum += e.kind === "masuk" ? e.amount : -e.amount;
      const expected = previous + (e.kind === "masuk" ? e.amount : -e.amount);
      if (e.balance !== expected) {
        throw new Error(`ledger: running balance breaks at ${e.id}: ${e.balance} ≠ ${expected}`);
      }
      previous = e.balance;
    }
    running = previous;
    cursor = page.nextCursor ?? "";
    pages++;
  } while (cursor);
  const [sqlSum] = await query(
    db,
    "SELECT COALESCE(SUM(CASE WHEN kind = 'masuk' THEN amount ELSE -amount END), 0) AS s FROM cash_entries",
  );
  // A reversed payment (migration 0011) keeps its row and its entry; the bill's paid amount no longer counts it.
  const [orphans] = await query(
    db,
    `SELECT (SELECT COUNT(*) FROM dues_payments p LEFT JOIN cash_entries c ON c.id = p.cash_entry_id
       WHERE c.id IS NULL OR c.amount <> p.amount OR c.source <> 'iuran') AS n,
      (SELECT COUNT(*) FROM dues_bills WHERE paid_amount <> (SELECT COALESCE(SUM(amount), 0) FROM dues_payments WHERE bill_id = dues_bills.id AND reversed_at IS NULL)) AS drift`,
  );
  const ok =
    sum === closing && running === closing && sqlSum.s === closing && orphans.n === 0 && orphans.drift === 0;
  console.log(
    `ledger check: ${ok ? "OK" : "FAILED"}: ${pages} pages, closing ${closing}, walked sum ${sum}, SQL sum ${sqlSum.s}, payments without their entry ${orphans.n}, bills whose paid amount drifts from their payments ${orphans.drift}`,
  );
  if (!ok) {
    throw new Error("ledger check failed");
  }
}

export async function run() {
  await prepareBenchState();
  const server = await startBenchWorkerd({
    vars: { JWT_SECRET: devSecret("JWT_SECRET"), LOG_LEVEL: "warn" },
  });
  try {
    const database = await tenantDatabase(server.mf);
    const bills = await seedHistory(database);
    // Staff writes check that the sign-in is live, so the treasurer signs in for real (demo password).
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "bendahara.rt02@warga.test", password: "warga-demo-2026" }),
    }).then((r) => r.json());
    const bendahara = { Authorization: `Bearer ${login.accessToken}` };
    const [types] = await query(database, "SELECT COUNT(*) AS n FROM dues_types WHERE active = 1");
    const [units] = await query(database, "SELECT COUNT(*) AS n FROM units");

    // Month-end generation into months no run has billed yet (years ahead), then a repeat of the last.
    const runs = [];
    const base = 2100 + Math.floor(Math.random() * 800);
    for (let i = 0; i < 3; i++) {
      const period = `${base}-${String(i + 1).padStart(2, "0")}`;
      const t0 = performance.now();
      const r = await call(`${server.url}/api/iuran/tagihan/generate`, bendahara, { period });
      runs.push({ period, ms: performance.now() - t0, created: r.created });
    }
    const t1 = performance.now();
    const repeat = await call(`${server.url}/api/iuran/tagihan/generate`, bendahara, {
      period: runs[2].period,
    });
    const repeatMs = performance.now() - t1;
    const inserts = types.n * Math.ceil(units.n / 500);
    console.log(
      `\nMonth-end generation on workerd: ${units.n} units × ${types.n} active types (the demo's 2 + the bench type)`,
    );
    for (const r of runs) {
      console.log(`  ${r.period}: ${r.created} bills in ${r.ms.toFixed(0)} ms`);
    }
    console.log(
      `  repeat of ${runs[2].period}: ${repeat.created} created, ${repeat.existing} existing, ${repeatMs.toFixed(0)} ms`,
    );
    console.log(
      `  D1 per run: 3 reads (active types; units and family cards in one batch) + 1 batch of ${inserts} INSERT … SELECT FROM json_each (500 targets each) + the audit row`,
    );

    const targets = {
      bare: { url: `${server.url}/__bare` },
      "GET /api/iuran/tunggakan": { url: `${server.url}/api/iuran/tunggakan`, headers: bendahara },
    };
    const arrears = await call(targets["GET /api/iuran/tunggakan"].url, bendahara);
    const stats = {};
    for (const t of Object.values(targets)) {
      await load(t.url, t.headers);
    }
    for (const [name, t] of Object.entries(targets)) {
      const r = await load(t.url, t.headers);
      if (r.non2xx > 0 || r.errors > 0) {
        throw new Error(`${name}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
      }
      stats[name] = { p50: r.p50, p99: r.p99, rps: r.rps };
    }
    console.log(
      `\nArrears over ${bills} bills (${MONTHS} months × ${UNITS} bench units and the demo's): ${arrears.totals.units} units owe Rp${arrears.totals.owed} (${CONNECTIONS} connections, ${DURATION_S}s)`,
    );
    console.log("route                        p50 ms   p99 ms    req/s   p50 ratio");
    for (const [name, s] of Object.entries(stats)) {
      console.log(
        `${name.padEnd(27)} ${s.p50.toFixed(1).padStart(7)} ${s.p99.toFixed(1).padStart(8)} ${s.rps.toFixed(0).padStart(8)} ${(s.p50 / stats.bare.p50).toFixed(2).padStart(10)}`,
      );
    }
    await ledgerCheck(server.url, bendahara, database);
    return { runs, stats };
  } finally {
    await server.stop();
  }
}
