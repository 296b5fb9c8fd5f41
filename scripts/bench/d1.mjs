// Local D1 databases prepared through a running workerd's own bindings (the benches' servers): the
// migrations wrangler would apply, recorded in the same ledger, and the dev seed's SQL run statement by
// statement. One workerd for all of it; `wrangler d1 …` starts one per command, which on a fresh state
// and a busy machine took minutes.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "../lib/dev-server.mjs";
import { SEEDED_TENANTS, seedSql } from "../seed-dev.mjs";

/**
 * The migrations wrangler would apply and this database lacks, recorded in the same ledger (as
 * core/db/migrate.ts does), so `wrangler d1 migrations apply` and this agree in both directions.
 */
export async function migrate(db, dir) {
  // A socket the proxy closed (see runAll) is tried again; the ledger says what did apply.
  for (let attempt = 1; ; attempt++) {
    try {
      return await migrateOnce(db, dir);
    } catch (error) {
      if (attempt >= 3 || error?.cause?.code !== "UND_ERR_SOCKET") {
        throw error;
      }
    }
  }
}

async function migrateOnce(db, dir) {
  await db
    .prepare(
      "CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)",
    )
    .run();
  const applied = new Set(
    (await db.prepare("SELECT name FROM d1_migrations").all()).results.map((r) => r.name),
  );
  const files = readdirSync(join(root, dir))
    .filter((f) => f.endsWith(".sql") && !applied.has(f))
    .sort();
  // One batch for every pending file (each file's ledger row first, as core/db/migrate.ts orders them):
  // one round trip per database, and all or nothing.
  const statements = files.flatMap((file) => [
    db.prepare("INSERT INTO d1_migrations (name) VALUES (?)").bind(file),
    ...readFileSync(join(root, dir, file), "utf8")
      .split("--> statement-breakpoint")
      .map((s) => s.trim())
      .filter(Boolean)
      .map((s) => db.prepare(s)),
  ]);
  if (statements.length) {
    await db.batch(statements);
  }
}

const WORD = /[A-Za-z_][A-Za-z0-9_]*/y;

/**
 * Splits SQL text into statements at semicolons outside quotes and outside a trigger's BEGIN … END
 * (the seed's text is written for `wrangler d1 execute --file`; a binding runs one statement at a time).
 */
export function splitSql(text) {
  const out = [];
  let start = 0;
  let quote = null;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) {
        quote = null;
      }
      continue;
    }
    if (c === "'" || c === '"' || c === "`") {
      quote = c;
    } else if (c === "-" && text[i + 1] === "-") {
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end;
    } else if (/[A-Za-z_]/.test(c) && !/[A-Za-z0-9_]/.test(text[i - 1] ?? " ")) {
      WORD.lastIndex = i;
      const word = WORD.exec(text)[0].toUpperCase();
      depth += word === "BEGIN" ? 1 : word === "END" && depth > 0 ? -1 : 0;
      i += word.length - 1;
    } else if (c === ";" && depth === 0) {
      const s = text.slice(start, i).trim();
      if (s) {
        out.push(s);
      }
      start = i + 1;
    }
  }
  const tail = text.slice(start).trim();
  if (tail && !/^(--[^\n]*\n?\s*)*$/.test(tail)) {
    out.push(tail);
  }
  return out;
}

export async function runAll(db, statements, chunk = 100) {
  for (let i = 0; i < statements.length; i += chunk) {
    const batch = () => db.batch(statements.slice(i, i + chunk).map((s) => db.prepare(s)));
    try {
      await batch();
    } catch (error) {
      // Miniflare's proxy may close a kept-alive socket that sat idle (a busy machine, a long CPU step
      // in Node between two calls): the request never reached the database, and the seed's statements
      // are INSERT OR IGNORE, so the batch is sent once more.
      if (error?.cause?.code !== "UND_ERR_SOCKET") {
        throw error;
      }
      await batch();
    }
  }
}

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
