export interface SqlMigration {
  name: string;
  statements: string[];
}

const LEDGER = `CREATE TABLE IF NOT EXISTS d1_migrations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT UNIQUE,
  applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
)`;

/** Rounds of "someone else migrated part of it meanwhile" before giving up (each round applies or learns). */
const ATTEMPTS = 5;

/**
 * Applies bundled migrations to one D1 database at run time, recording them in the same
 * `d1_migrations` ledger `wrangler d1 migrations apply` uses, so the two tools agree.
 *
 * Every pending migration goes in one batch (one transaction, one round trip: a new tenant's database is
 * migrated in a third of the time 27 batches took), each preceded by its ledger row. When two isolates
 * migrate the same database at once, the loser's batch fails on a UNIQUE name and rolls back whole,
 * instead of failing half-way on "table already exists" (`INSERT OR IGNORE` would not stop the DDL
 * from running); it then reads the ledger again and applies what is still missing (a newer deploy may
 * carry migrations the winner did not know).
 */
export async function applyMigrations(
  db: D1Database,
  migrations: readonly SqlMigration[],
): Promise<string[]> {
  await db.prepare(LEDGER).run();
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const applied = await db.prepare("SELECT name FROM d1_migrations").all<{ name: string }>();
    const done = new Set(applied.results.map((r) => r.name));
    const pending = migrations.filter((m) => !done.has(m.name));
    if (pending.length === 0) {
      return [];
    }
    try {
      await db.batch(
        pending.flatMap((migration) => [
          db.prepare("INSERT INTO d1_migrations (name) VALUES (?)").bind(migration.name),
          ...migration.statements.map((s) => db.prepare(s)),
        ]),
      );
      return pending.map((m) => m.name);
    } catch (error) {
      if (!String(error).includes("UNIQUE constraint failed: d1_migrations.name")) {
        throw error;
      }
    }
  }
  throw new Error("migrations kept being applied by another isolate; try again");
}
