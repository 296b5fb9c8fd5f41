import { OWNER_GUARD_SQL, uncarried } from "../../src/core/tenancy/owner";
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

/**
 * A D1 binding that records every round trip (a batch is one, with the SQL of each statement) and can
 * hold one back: `hold(sql)` returns a promise the call waits on before it reaches the database.
 */
export function countingD1(
  real: D1Database,
  trips: string[][],
  hold?: (sql: string) => Promise<void> | undefined,
) {
  const sqlOf = new WeakMap<object, { sql: string; real: D1PreparedStatement }>();
  const wrap = (stmt: D1PreparedStatement, text: string): D1PreparedStatement => {
    // A statement carrying the owner check itself is listed as the statement it carries it for.
    const sql = uncarried(text) ?? text;
    const go =
      <T>(run: () => Promise<T>) =>
      async (): Promise<T> => {
        // The owner check alone runs beside a handle's first read (core/tenancy/owner.ts): not a
        // round trip of its own, nor a statement of the request's.
        if (sql !== OWNER_GUARD_SQL) {
          trips.push([sql]);
        }
        await hold?.(sql);
        return run();
      };
    const wrapped = {
      bind: (...values: unknown[]) => wrap(stmt.bind(...values), text),
      first: (column?: string) => go(() => (column === undefined ? stmt.first() : stmt.first(column)))(),
      all: go(() => stmt.all()),
      run: go(() => stmt.run()),
      raw: go(() => stmt.raw()),
    };
    sqlOf.set(wrapped, { sql, real: stmt });
    return wrapped as unknown as D1PreparedStatement;
  };
  return new Proxy(real, {
    get(target, prop) {
      if (prop === "prepare") {
        return (sql: string) => wrap(target.prepare(sql), sql);
      }
      if (prop === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          // The slot's owner check rides in front of a handle's first batch (core/tenancy/owner.ts): the
          // same round trip, not a statement of the request's own, so it is not listed.
          const sqls = statements
            .map((s) => sqlOf.get(s)?.sql ?? "?")
            .filter((sql) => sql !== OWNER_GUARD_SQL);
          trips.push(sqls);
          await hold?.(sqls[0] ?? "");
          return target.batch(statements.map((s) => sqlOf.get(s)?.real ?? s));
        };
      }
      if (prop === "withSession") {
        // A request reads its community through a D1 session (ADR 0036): count that session's trips too.
        return (constraint?: string) =>
          countingD1(target.withSession(constraint) as unknown as D1Database, trips, hold);
      }
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * A D1 binding that lists the SQL of every statement D1 is sent, call by call (a batch is one, with the
 * SQL of each statement), the slot owner's check included, whether in front of a batch or carried by its
 * first statement (core/tenancy/owner.ts): what the database runs, where `countingD1` lists what the
 * request asked for.
 */
export function sentD1(real: D1Database, sent: string[][]): D1Database {
  // workerd's D1 statement keeps its SQL as `statement` (cloudflare-internal:d1-api).
  const sqlOf = (statement: D1PreparedStatement) => (statement as unknown as { statement: string }).statement;
  const watched = (statement: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(statement, {
      get(s, p) {
        const value = Reflect.get(s, p);
        if (p === "bind") {
          return (...values: unknown[]) => watched(s.bind(...values));
        }
        if (p === "first" || p === "all" || p === "run" || p === "raw") {
          return (...args: unknown[]) => {
            sent.push([sqlOf(s)]);
            return (value as (...a: unknown[]) => unknown).apply(s, args);
          };
        }
        return typeof value === "function" ? value.bind(s) : value;
      },
    });
  return new Proxy(real, {
    get(target, prop) {
      if (prop === "prepare") {
        return (sql: string) => watched(target.prepare(sql));
      }
      if (prop === "batch") {
        return (statements: D1PreparedStatement[]) => {
          sent.push(statements.map(sqlOf));
          return target.batch(statements);
        };
      }
      if (prop === "withSession") {
        return (constraint?: string) => sentD1(target.withSession(constraint) as unknown as D1Database, sent);
      }
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
