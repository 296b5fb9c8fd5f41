// Local D1 databases prepared through a running workerd's own bindings (the benches' servers): the
// migrations wrangler would apply, recorded in the same ledger, and the dev seed's SQL run statement by
// statement. One workerd for all of it; `wrangler d1 …` starts one per command, which on a fresh state
// and a busy machine took minutes.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { migrate, runAll, splitSql } from "../lib/d1-apply.mjs";
import { root } from "../lib/dev-server.mjs";
import { SEEDED_TENANTS, seedSql } from "../seed-dev.mjs";

export { migrate, runAll, splitSql };

/**
 * Every database of the main Worker migrated and the dev seed applied (idempotent: the seed's SQL is
 * INSERT OR IGNORE by fixed ids), through a running server's bindings: returns the seeded tenants' rows.
 */
export async function migrateAndSeed(mf, slots) {
  const timings = [];
  const lap = (what, t0) => timings.push(`${what} ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  let t0 = performance.now();
  // The seed's SQL first: hashing the demo passwords takes seconds of Node's CPU, which would leave the
  // proxy's socket idle between two calls.
  const sql = await seedSql({ slots });
  const platform = await mf.getD1Database("PLATFORM_DB");
  await migrate(platform, "migrations/platform");
  await runAll(platform, splitSql(sql.platform));
  lap("platform", t0);
  // The slots the seed claimed; the others are migrated when a tenant claims them (as in production).
  const tenants = (await platform.prepare(SEEDED_TENANTS).all()).results;
  for (const row of tenants) {
    t0 = performance.now();
    const db = await mf.getD1Database(`TENANT_DB_${String(row.slot).padStart(2, "0")}`);
    await migrate(db, "migrations/tenant");
    const text = sql.tenant(row);
    if (text) {
      await runAll(db, splitSql(text));
    }
    lap(row.slug, t0);
  }
  if (process.env.BENCH_VERBOSE) {
    console.log(`migrated and seeded: ${timings.join(", ")}`);
  }
  return tenants;
}

/** How many tenant slots wrangler.toml declares (the routes bench's state has exactly those). */
export function declaredSlots() {
  return (readFileSync(join(root, "wrangler.toml"), "utf8").match(/binding = "TENANT_DB_\d+"/g) ?? []).length;
}

/**
 * Bills written straight into the database (the benches' history) bypass the kept arrears totals that
 * every bill write maintains (`dues_balances`, ADR 0028): their slots are recomputed from the bills, as
 * the table's own migration fills it, so arrears and the dashboard read what the bills say, and then
 * each unit's totals from the slots. Nothing happens on a schema without the tables.
 */
export async function refreshDuesBalances(db, idPattern) {
  const table = await db
    .prepare("SELECT 1 AS ok FROM sqlite_master WHERE type = 'table' AND name = 'dues_balances'")
    .first();
  if (!table) {
    return;
  }
  await db
    .prepare(
      `INSERT OR REPLACE INTO dues_balances (target_id, period, basis, unit_id, family_id, outstanding, open_bills)
       SELECT target_id, period, max(basis), unit_id, max(family_id), sum(amount - paid_amount), count(*)
       FROM dues_bills WHERE status IN ('belum', 'sebagian') AND id LIKE ? GROUP BY unit_id, period, target_id`,
    )
    .bind(idPattern)
    .run();
  // Each unit's totals over its slots (dues_unit_balances, issue 32), as the verbs keep them.
  const units = await db
    .prepare("SELECT 1 AS ok FROM sqlite_master WHERE type = 'table' AND name = 'dues_unit_balances'")
    .first();
  if (units) {
    await db.batch([
      db.prepare("DELETE FROM dues_unit_balances"),
      db.prepare(
        `INSERT INTO dues_unit_balances (unit_id, owed, open_bills, oldest_period, newest_period)
         SELECT unit_id, sum(outstanding), sum(open_bills), min(period), max(period) FROM dues_balances GROUP BY unit_id`,
      ),
    ]);
  }
}

/**
 * Cash entries written straight into the database likewise bypass the cash book's kept month totals
 * (`cash_months`, ADR 0028): the table is rewritten whole from the entries, as its migration fills it.
 * Nothing happens on a schema without the table.
 */
export async function refreshCashMonths(db) {
  const table = await db
    .prepare("SELECT 1 AS ok FROM sqlite_master WHERE type = 'table' AND name = 'cash_months'")
    .first();
  if (!table) {
    return;
  }
  await db.batch([
    db.prepare("DELETE FROM cash_months"),
    db.prepare(
      `INSERT INTO cash_months (month, category, income, expense, entries)
       SELECT substr(date, 1, 7), category, sum(CASE WHEN kind = 'masuk' THEN amount ELSE 0 END),
         sum(CASE WHEN kind = 'keluar' THEN amount ELSE 0 END), count(*)
       FROM cash_entries GROUP BY substr(date, 1, 7), category`,
    ),
  ]);
}
