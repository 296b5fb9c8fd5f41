import { bindings, type TestTenant } from "./harness";

/** A tenant's own D1 database, for tests that read or rig it below the API. */
export function tenantD1(tenant: Pick<TestTenant, "slot">): D1Database {
  const db = (bindings as unknown as Record<string, D1Database | undefined>)[
    `TENANT_DB_${String(tenant.slot).padStart(2, "0")}`
  ];
  if (!db) {
    throw new Error(`no binding for slot ${tenant.slot}`);
  }
  return db;
}

/**
 * Runs `fn` with a trigger installed, then drops it. Tenants share slot databases in tests, so the
 * trigger's WHEN clause must name this test's own rows. `RAISE(ABORT, …)` makes a statement fail (and
 * with it the batch it is in); `RAISE(IGNORE)` in a BEFORE UPDATE skips the row as if another request
 * had changed it first.
 */
export async function withTrigger<T>(
  db: D1Database,
  name: string,
  definition: string,
  fn: () => Promise<T>,
): Promise<T> {
  await db.prepare(`CREATE TRIGGER ${name} ${definition}`).run();
  try {
    return await fn();
  } finally {
    await db.prepare(`DROP TRIGGER IF EXISTS ${name}`).run();
  }
}
