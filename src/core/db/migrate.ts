export interface SqlMigration {
  name: string;
  statements: string[];
}

const LEDGER = `CREATE TABLE IF NOT EXISTS d1_migrations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT UNIQUE,
  applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
)`;

/**
 * Applies bundled migrations to one D1 database at run time, recording them in the same
 * `d1_migrations` ledger `wrangler d1 migrations apply` uses, so the two tools agree.
 *
 * The ledger row is inserted first, in the same batch as the DDL: when two isolates migrate the same
 * database at once, the loser's batch fails on the UNIQUE name and rolls back whole, instead of failing
 * half-way on "table already exists". (`INSERT OR IGNORE` would not stop the DDL from running.)
 */
export async function applyMigrations(
  db: D1Database,
  migrations: readonly SqlMigration[],
): Promise<string[]> {
  await db.prepare(LEDGER).run();
  const applied = await db.prepare("SELECT name FROM d1_migrations").all<{ name: string }>();
  const done = new Set(applied.results.map((r) => r.name));
  const ran: string[] = [];
  for (const migration of migrations) {
    if (done.has(migration.name)) {
      continue;
    }
    try {
      await db.batch([
        db.prepare("INSERT INTO d1_migrations (name) VALUES (?)").bind(migration.name),
        ...migration.statements.map((s) => db.prepare(s)),
      ]);
      ran.push(migration.name);
    } catch (error) {
      if (!String(error).includes("UNIQUE constraint failed: d1_migrations.name")) {
        throw error;
      }
    }
  }
  return ran;
}
