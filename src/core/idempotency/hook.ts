import { AsyncLocalStorage } from "node:async_hooks";
import { callDependency } from "../dependency";

/**
 * The batch hook (ADR 0034): while a request holds an `Idempotency-Key`, its first write to a database,
 * whether a drizzle batch, one drizzle statement or a raw statement, carries one more statement that marks
 * the key `committed` in that same database. D1 runs a batch as one transaction, so the mark exists
 * exactly when the change does: a batch that fails leaves neither, and a replay cannot disagree with
 * what was written. The same way a write under `If-Match` carries its version guard (ADR 0035): any
 * `WriteAttachment` below. Every D1 binding core hands out (core/db/platform.ts, core/tenancy/slots.ts),
 * and any object with `prepare` and `batch` (a D1 session), is wrapped here once per isolate; outside
 * such a request the wrapper only forwards (and retries, below).
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

/**
 * What a request adds to its write batches. `attach` sees the batch's database and its statements' SQL
 * (undefined for one not prepared through this hook) and returns the statements to run ahead of and
 * behind them, or null; `committed` gets the results of its `after` statements once the batch landed;
 * `failed` may turn the batch's error into the error the request answers with. The idempotency mark
 * (ADR 0034) and the If-Match guard (core/http/conditional.ts, ADR 0035) are two such attachments.
 */
export interface WriteAttachment {
  attach(raw: D1Database, texts: readonly (string | undefined)[]): Attached | null;
  committed(after: readonly D1Result[]): void;
  failed?(error: unknown): Error | null;
}

export interface Attached {
  before: D1PreparedStatement[];
  after: D1PreparedStatement[];
}

const current = new AsyncLocalStorage<readonly WriteAttachment[]>();

/** Runs `fn` with `attachment` added to whatever the request already attaches to its writes. */
export function runWithAttachment<T>(attachment: WriteAttachment, fn: () => T): T {
  return current.run([...(current.getStore() ?? []), attachment], fn);
}

export function runWithReservation<T>(reservation: Reservation, fn: () => T): T {
  return runWithAttachment(reservationAttachment(reservation), fn);
}

const WRITE_RE = /^\s*(insert|update|delete|replace)\b/i;

/**
 * Whether SQL text writes. A statement prepared on the raw binding (not through the hook) has no text
 * and counts as a write: marking a read-only batch costs one UPDATE, missing a write would break the
 * promise.
 */
export function isWriteText(text: string | undefined): boolean {
  return text === undefined || WRITE_RE.test(text);
}

/** The first write of the request, a batch or a single statement, carries the key's mark. */
function reservationAttachment(r: Reservation): WriteAttachment {
  return {
    attach: (raw, texts) =>
      !r.committed && texts.some(isWriteText) ? { before: [], after: [markStatement(raw, r)] } : null,
    committed: () => {
      r.committed = true;
    },
  };
}

function markStatement(raw: D1Database, r: Reservation): D1PreparedStatement {
  if (databaseOf(raw) === r.home) {
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

const RAW = Symbol("raw statement");

interface Wrapped {
  [RAW]: D1PreparedStatement;
}

function unwrap(statement: D1PreparedStatement): D1PreparedStatement {
  return (statement as unknown as Partial<Wrapped>)[RAW] ?? statement;
}

/** What each attachment that applies adds to one batch. */
type Plan = { attachment: WriteAttachment; added: Attached }[];

function plan(raw: D1Database, texts: readonly (string | undefined)[]): Plan | null {
  const plans: Plan = [];
  for (const attachment of current.getStore() ?? []) {
    const added = attachment.attach(raw, texts);
    if (added) {
      plans.push({ attachment, added });
    }
  }
  return plans.length > 0 ? plans : null;
}

/**
 * `real` as one batch with what the plans add ahead of and behind it; answers the results of `real`
 * only. One batch is one transaction: a guard ahead that fails takes the whole write with it.
 */
async function runPlanned<T>(
  raw: D1Database,
  real: D1PreparedStatement[],
  plans: Plan,
): Promise<D1Result<T>[]> {
  const before = plans.flatMap((p) => p.added.before);
  const after = plans.flatMap((p) => p.added.after);
  let results: D1Result<T>[];
  try {
    results = await d1(() => raw.batch<T>([...before, ...real, ...after]));
  } catch (error) {
    for (const p of plans) {
      const mapped = p.attachment.failed?.(error);
      if (mapped) {
        throw mapped;
      }
    }
    throw error;
  }
  let at = before.length + real.length;
  for (const p of plans) {
    p.attachment.committed(results.slice(at, at + p.added.after.length) as D1Result[]);
    at += p.added.after.length;
  }
  return results.slice(before.length, before.length + real.length);
}

class HookedStatement implements Wrapped {
  readonly [RAW]: D1PreparedStatement;
  constructor(
    private readonly db: D1Database,
    real: D1PreparedStatement,
    readonly text: string,
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

  /** One write alone becomes a batch with what the request attaches; reads run as they are. */
  private async marked(): Promise<D1Result | null> {
    const plans = WRITE_RE.test(this.text) ? plan(this.db, [this.text]) : null;
    if (!plans) {
      return null;
    }
    const [result] = await runPlanned(this.db, [this[RAW]], plans);
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
/** The binding a D1 session (wrapped here) was started from; a binding is its own. */
const origins = new WeakMap<D1Database, D1Database>();

/** The database `raw` writes to: the binding itself, or the binding a session of it was started from. */
function databaseOf(raw: D1Database): D1Database {
  return origins.get(raw) ?? raw;
}

/**
 * `raw` with the batch hook; the same wrapper for the same binding. For a D1 session, `origin` names the
 * binding it was started from, so the idempotency mark of a write made through the session is the
 * UPDATE of the reservation's own row, as for a write through the binding (ADR 0036).
 */
export function withIdempotencyHook(raw: D1Database, origin?: D1Database): D1Database {
  if (origin) {
    origins.set(raw, origin);
  }
  let db = hooked.get(raw);
  if (!db) {
    db = {
      prepare: (query: string) =>
        new HookedStatement(raw, raw.prepare(query), query) as unknown as D1PreparedStatement,
      async batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
        const real = statements.map(unwrap);
        const plans = real.length > 0 ? plan(raw, statements.map(textOf)) : null;
        return plans ? runPlanned<T>(raw, real, plans) : d1(() => raw.batch<T>(real));
      },
      exec: (query: string) => raw.exec(query),
      dump: () => (raw as unknown as { dump(): Promise<ArrayBuffer> }).dump(),
      withSession: (constraint?: string) => raw.withSession(constraint as never),
    } as unknown as D1Database;
    hooked.set(raw, db);
  }
  return db;
}

function textOf(statement: D1PreparedStatement): string | undefined {
  return (statement as unknown as { text?: string }).text;
}
