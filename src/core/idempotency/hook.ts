import { AsyncLocalStorage } from "node:async_hooks";
import { callDependency } from "../dependency";

/**
 * The batch hook (ADR 0034): while a request holds an `Idempotency-Key`, its first write to a database,
 * whether a drizzle batch, one drizzle statement or a raw statement, carries one more statement that marks
 * the key `committed` in that same database. D1 runs a batch as one transaction, so the mark exists
 * exactly when the change does: a batch that fails leaves neither, and a replay cannot disagree with
 * what was written. Every D1 binding core hands out (core/db/platform.ts, core/tenancy/slots.ts) is
 * wrapped here once per isolate; outside such a request the wrapper only forwards (and retries, below).
 */
export interface Reservation {
  scope: string;
  key: string;
  actorId: string;
  requestHash: string;
  owner: string;
  /** The database holding the reservation row; a write elsewhere inserts a marker row there. */
  home: D1Database;
  lockedUntil: string;
  createdAt: string;
  /** Set once a write carrying the mark has succeeded. */
  committed: boolean;
}

const current = new AsyncLocalStorage<Reservation>();

export function runWithReservation<T>(reservation: Reservation, fn: () => T): T {
  return current.run(reservation, fn);
}

const WRITE_RE = /^\s*(insert|update|delete|replace)\b/i;

function markStatement(raw: D1Database, r: Reservation): D1PreparedStatement {
  if (raw === r.home) {
    return raw
      .prepare(
        "UPDATE idempotency_keys SET state = 'committed' WHERE scope = ?1 AND key = ?2 AND owner = ?3 AND state = 'pending'",
      )
      .bind(r.scope, r.key, r.owner);
  }
  return raw
    .prepare(
      "INSERT INTO idempotency_keys (scope, key, actor_id, request_hash, state, owner, locked_until, created_at) " +
        "VALUES (?1, ?2, ?3, ?4, 'committed', ?5, ?6, ?7) ON CONFLICT (scope, key) DO UPDATE SET " +
        "state = 'committed', owner = excluded.owner, request_hash = excluded.request_hash, created_at = excluded.created_at",
    )
    .bind(r.scope, r.key, r.actorId, r.requestHash, r.owner, r.lockedUntil, r.createdAt);
}

/** The reservation a write on `raw` must mark, or null (no key, already marked). */
function pendingMark(): Reservation | null {
  const r = current.getStore();
  return r && !r.committed ? r : null;
}

const RAW = Symbol("raw statement");

interface Wrapped {
  [RAW]: D1PreparedStatement;
}

function unwrap(statement: D1PreparedStatement): D1PreparedStatement {
  return (statement as unknown as Partial<Wrapped>)[RAW] ?? statement;
}

class HookedStatement implements Wrapped {
  readonly [RAW]: D1PreparedStatement;
  constructor(
    private readonly db: D1Database,
    real: D1PreparedStatement,
    private readonly text: string,
  ) {
    this[RAW] = real;
  }

  bind(...values: unknown[]): D1PreparedStatement {
    return new HookedStatement(
      this.db,
      this[RAW].bind(...values),
      this.text,
    ) as unknown as D1PreparedStatement;
  }

  /** One write alone becomes a batch of itself and the mark; reads and unmarked writes run as they are. */
  private async marked(): Promise<D1Result | null> {
    const r = WRITE_RE.test(this.text) ? pendingMark() : null;
    if (!r) {
      return null;
    }
    const [result] = await d1(() => this.db.batch([this[RAW], markStatement(this.db, r)]));
    r.committed = true;
    return result as D1Result;
  }

  async run(): Promise<D1Result> {
    return (await this.marked()) ?? d1(() => this[RAW].run());
  }

  async all(): Promise<D1Result> {
    return (await this.marked()) ?? d1(() => this[RAW].all());
  }

  async first(column?: string): Promise<unknown> {
    const result = await this.marked();
    if (!result) {
      return d1(() => (column === undefined ? this[RAW].first() : this[RAW].first(column)));
    }
    const row = (result.results[0] ?? null) as Record<string, unknown> | null;
    return column === undefined || row === null ? row : row[column];
  }

  async raw(options?: { columnNames?: boolean }): Promise<unknown[]> {
    const result = await this.marked();
    if (!result) {
      return d1(() => (options?.columnNames ? this[RAW].raw({ columnNames: true }) : this[RAW].raw()));
    }
    const rows = result.results as Record<string, unknown>[];
    const values = rows.map((row) => Object.values(row));
    return options?.columnNames ? [Object.keys(rows[0] ?? {}), ...values] : values;
  }
}

/**
 * Every call to D1 through core's handles: tried once more when D1 says the failure is transient, else
 * 503 `dependency_unavailable` (core/dependency.ts). A batch is one transaction, so trying it again
 * cannot half-apply it.
 */
function d1<T>(call: () => Promise<T>): Promise<T> {
  return callDependency("D1", call);
}

const hooked = new WeakMap<D1Database, D1Database>();

/** `raw` with the batch hook; the same wrapper for the same binding. */
export function withIdempotencyHook(raw: D1Database): D1Database {
  let db = hooked.get(raw);
  if (!db) {
    db = {
      prepare: (query: string) =>
        new HookedStatement(raw, raw.prepare(query), query) as unknown as D1PreparedStatement,
      async batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
        const real = statements.map(unwrap);
        const r = real.length > 0 && statements.some(isWrite) ? pendingMark() : null;
        if (!r) {
          return d1(() => raw.batch<T>(real));
        }
        const results = await d1(() => raw.batch<T>([...real, markStatement(raw, r)]));
        r.committed = true;
        return results.slice(0, real.length);
      },
      exec: (query: string) => raw.exec(query),
      dump: () => (raw as unknown as { dump(): Promise<ArrayBuffer> }).dump(),
      withSession: (constraint?: string) => raw.withSession(constraint as never),
    } as unknown as D1Database;
    hooked.set(raw, db);
  }
  return db;
}

function isWrite(statement: D1PreparedStatement): boolean {
  const text = (statement as unknown as { text?: string }).text;
  // A statement prepared on the raw binding (not through the hook) is counted as a write: marking a
  // read-only batch costs one UPDATE, missing a write would break the promise.
  return text === undefined || WRITE_RE.test(text);
}
