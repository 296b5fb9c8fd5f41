// The large RT of the routes bench (issue 32): a fresh local state holding the dev seed (every module's
// demo rows, accounts and flags), whose RT 01 is then grown to a real community's size straight through
// the running workerd's D1 bindings: the registry (scripts/bench/registry.mjs's generator), 36 months of
// dues with payments and arrears, the cash book, and every other module's rows copied from the demo's own
// (so every status and JSON column holds a value the module wrote), spread over the houses and the dates.
// `BENCH_ROUTES_SCALE` (default 1) scales every count; a smoke run uses a small fraction.
import { migrateAndSeed, refreshCashMonths, refreshDuesBalances, runAll } from "./d1.mjs";
import { registryStatements } from "./registry.mjs";

const SCALE = Number(process.env.BENCH_ROUTES_SCALE ?? 1);
const n = (count) => Math.max(2, Math.round(count * SCALE));

/** The sizes (item 1), scaled. */
export const SIZES = {
  units: n(2_000),
  families: n(5_000),
  persons: n(18_000),
  vehicles: n(6_000),
  duesMonths: SCALE < 1 ? 3 : 36,
  cashEntries: n(20_000),
  letters: n(3_000),
  complaints: n(1_000),
  polls: n(200),
  berita: n(500),
  pengumuman: n(500),
  visitors: n(5_000),
  listings: n(500),
};

export const LARGE_RT = { id: "seed-tenant-rt01", slug: "rt-01-sukamaju" };
const DUES_TYPE = { id: "rb-dues-keamanan", name: "Iuran keamanan & kebersihan", amount: 50_000 };

const nums = (count) =>
  `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${count - 1})`;

/**
 * `count` rows of `table` copied from the demo's rows (cycled), with new ids, houses spread over the
 * bench's units (1 in 20 keeps the demo resident's own, so "mine" lists have a realistic few), unique
 * text columns suffixed, and `dates` columns moved back by up to `spreadDays` days.
 */
async function copyDemoRows(db, table, count, { dates = [], spreadDays = 365, where = "1" } = {}) {
  const columns = (await db.prepare(`PRAGMA table_info(${table})`).all()).results.map((c) => c.name);
  const unique = new Set();
  for (const index of (await db.prepare(`PRAGMA index_list(${table})`).all()).results) {
    if (index.unique && index.origin !== "pk") {
      for (const c of (await db.prepare(`PRAGMA index_info(${index.name})`).all()).results) {
        unique.add(c.name);
      }
    }
  }
  const expr = (c) => {
    if (c === "id") {
      return `'rb-${table}-' || n.i`;
    }
    if (c === "unit_id") {
      return `CASE WHEN n.i % 20 = 0 OR d.unit_id IS NULL THEN d.unit_id ELSE 'rb-unit-' || (n.i % ${SIZES.units}) END`;
    }
    if (dates.includes(c)) {
      // A calendar day (a cash entry's `date`) stays a day; an instant stays an instant.
      const back = `'-' || ((n.i * 7919) % ${spreadDays}) || ' days'`;
      return `CASE WHEN d.${c} IS NULL THEN NULL WHEN length(d.${c}) = 10 THEN date(d.${c}, ${back}) ELSE strftime('%Y-%m-%dT%H:%M:%fZ', d.${c}, ${back}) END`;
    }
    if (unique.has(c)) {
      return `CASE WHEN d.${c} IS NULL THEN NULL ELSE d.${c} || '-rb' || n.i END`;
    }
    return `d.${c}`;
  };
  const demo = `SELECT *, row_number() OVER (ORDER BY id) - 1 AS k, COUNT(*) OVER () AS c FROM ${table} WHERE id NOT LIKE 'rb-%' AND (${where})`;
  await db
    .prepare(
      `${nums(count)}, d AS (${demo}) INSERT OR IGNORE INTO ${table} (${columns.join(", ")}) SELECT ${columns
        .map(expr)
        .join(", ")} FROM n JOIN d ON d.k = n.i % d.c`,
    )
    .run();
  return (await db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first()).n;
}

/** The last `count` dues periods before this month (Jakarta's calendar), oldest first. */
function periods(count) {
  const jakarta = new Date(Date.now() + 7 * 3_600_000);
  const out = [];
  for (let back = count; back >= 1; back--) {
    const m = jakarta.getUTCFullYear() * 12 + jakarta.getUTCMonth() - back;
    out.push(`${Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, "0")}`);
  }
  return out;
}

/**
 * Dues: one type over every bench house, `duesMonths` months; 9 in 10 bills paid (a payment and its cash
 * entry each), the rest owed, more of them recent. Generated inside SQLite (recursive CTEs).
 */
function duesStatements(now) {
  const q = (v) => `'${String(v).replace(/'/g, "''")}'`;
  const months = periods(SIZES.duesMonths);
  const m = `m(p) AS (SELECT value FROM json_each(${q(JSON.stringify(months))}))`;
  const owed = "((u * 7 + CAST(substr(p, 6) AS INTEGER) * 13) % 10 = 0)";
  return [
    `INSERT OR IGNORE INTO dues_types (id, name, basis, start_period, active, rates, exempt_unit_ids, updated_at) VALUES (${q(DUES_TYPE.id)}, ${q(DUES_TYPE.name)}, 'unit', ${q(months[0])}, 1, ${q(JSON.stringify([{ from: months[0], amount: DUES_TYPE.amount }]))}, '[]', ${q(now)})`,
    `WITH RECURSIVE n(u) AS (SELECT 0 UNION ALL SELECT u + 1 FROM n WHERE u < ${SIZES.units - 1}), ${m}
     INSERT OR IGNORE INTO dues_bills (id, type_id, type_name, period, basis, target_id, unit_id, amount, paid_amount, status, last_payment_id, updated_at)
     SELECT 'rb-bill-' || p || '-' || u, ${q(DUES_TYPE.id)}, ${q(DUES_TYPE.name)}, p, 'unit', 'rb-unit-' || u, 'rb-unit-' || u, ${DUES_TYPE.amount},
       CASE WHEN ${owed} THEN 0 ELSE ${DUES_TYPE.amount} END, CASE WHEN ${owed} THEN 'belum' ELSE 'lunas' END,
       CASE WHEN ${owed} THEN NULL ELSE 'rb-bill-' || p || '-' || u || '-pay' END, ${q(now)}
     FROM n, m`,
    `INSERT OR IGNORE INTO cash_entries (id, kind, category, amount, date, note, source, source_id)
     SELECT id || '-kas', 'masuk', type_name, amount, period || '-10', 'Iuran ' || period, 'iuran', id || '-pay'
     FROM dues_bills WHERE type_id = ${q(DUES_TYPE.id)} AND status = 'lunas'`,
    `INSERT OR IGNORE INTO dues_payments (id, bill_id, amount, method, paid_at, cash_entry_id)
     SELECT id || '-pay', id, amount, 'tunai', period || '-10T03:00:00.000Z', id || '-kas'
     FROM dues_bills WHERE type_id = ${q(DUES_TYPE.id)} AND status = 'lunas'`,
  ];
}

/** Polls: the demo has none, so a closed yes/no poll a month, a few open and a few drafts. */
function pollStatements(now) {
  const options = JSON.stringify([
    { id: "setuju", label: "Setuju" },
    { id: "tidak", label: "Tidak setuju" },
    { id: "abstain", label: "Abstain" },
  ]);
  return [
    `${nums(SIZES.polls)} INSERT OR IGNORE INTO polls (id, title, description, options, starts_at, ends_at, status, quorum_kind, quorum_value, anonymous, multiple_choice, max_choices, voter_scope, results_visibility, eligible_voters, results, ballots, created_by, updated_at, opened_at, closed_at)
     SELECT 'rb-poll-' || i, 'Musyawarah warga ke-' || (i + 1), 'Usulan kegiatan dan iuran tambahan nomor ' || (i + 1), '${options}',
       strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || (i * 9 + 2) || ' days'),
       strftime('%Y-%m-%dT%H:%M:%fZ', 'now', CASE WHEN i < 6 THEN '+5 days' ELSE '-' || (i * 9 - 5) || ' days' END),
       CASE WHEN i < 3 THEN 'aktif' WHEN i < 6 THEN 'draft' ELSE 'ditutup' END, 'percent', 50, i % 2, 0, 1, 'warga', 'always', ${SIZES.persons},
       '{"setuju":' || (300 + i) || ',"tidak":' || (100 + i % 50) || ',"abstain":12}', 412 + i + i % 50, 'seed-user-sekretaris-rt01', '${now}',
       CASE WHEN i BETWEEN 3 AND 5 THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || (i * 9 + 2) || ' days') END,
       CASE WHEN i < 6 THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || (i * 9 - 5) || ' days') END
     FROM n`,
  ];
}

/** The registry, dues, cash book and every module's rows at the issue's size, in RT 01's database. */
async function growLargeRt(db) {
  const now = new Date().toISOString();
  await runAll(
    db,
    registryStatements({
      families: SIZES.families,
      persons: SIZES.persons,
      vehicles: SIZES.vehicles,
      units: SIZES.units,
      prefix: "rb",
      padIds: false,
    }),
  );
  await runAll(db, [...duesStatements(now), ...pollStatements(now)], 1);
  await refreshDuesBalances(db, "rb-bill-%");
  const counts = {};
  counts.cashEntries = await copyDemoRows(db, "cash_entries", SIZES.cashEntries, {
    dates: ["date"],
    spreadDays: 1095,
    where: "source <> 'iuran'",
  });
  await refreshCashMonths(db);
  counts.letters = await copyDemoRows(db, "letters", SIZES.letters, { dates: ["created_at", "updated_at"] });
  counts.complaints = await copyDemoRows(db, "complaints", SIZES.complaints, {
    dates: ["created_at", "updated_at"],
  });
  counts.berita = await copyDemoRows(db, "berita", SIZES.berita, { dates: ["published_at", "created_at"] });
  counts.pengumuman = await copyDemoRows(db, "pengumuman", SIZES.pengumuman, {
    dates: ["published_at", "created_at"],
  });
  counts.visitors = await copyDemoRows(db, "visitors", SIZES.visitors, {
    dates: ["visit_at", "created_at"],
    spreadDays: 730,
  });
  counts.listings = await copyDemoRows(db, "pasar_listings", SIZES.listings, { dates: ["created_at"] });
  await db.prepare("ANALYZE").run();
  const [row] = (
    await db
      .prepare(
        "SELECT (SELECT COUNT(*) FROM units) AS units, (SELECT COUNT(*) FROM family_cards) AS kk, (SELECT COUNT(*) FROM family_members) AS persons, (SELECT COUNT(*) FROM vehicles) AS vehicles, (SELECT COUNT(*) FROM dues_bills) AS bills, (SELECT COUNT(*) FROM dues_payments) AS payments, (SELECT COUNT(*) FROM polls) AS polls",
      )
      .all()
  ).results;
  return { ...row, ...counts };
}

/**
 * A fresh state for the routes bench, seeded through `server`'s bindings: the dev seed in every slot,
 * RT 01 grown to the issue's size. Returns the counts it holds.
 */
export async function seedLargeRt(mf, slots) {
  const tenants = await migrateAndSeed(mf, slots);
  const rt = tenants.find((t) => t.id === LARGE_RT.id);
  if (!rt) {
    throw new Error(`the dev seed made no ${LARGE_RT.id}`);
  }
  return growLargeRt(await mf.getD1Database(`TENANT_DB_${String(rt.slot).padStart(2, "0")}`));
}
