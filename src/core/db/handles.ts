import { callDependency } from "../dependency";

/**
 * The database handles core hands out, and what one request binds into them (ADR 0048). A handle is
 * a D1 binding (or a D1 session of one) wrapped once: every call retried once when D1 says the failure
 * is transient (core/dependency.ts), and, for a handle built for one request's context
 * (core/tenancy/contexts.ts), that request's `DbScope`: the statements its writes carry (the
 * idempotency mark, ADR 0034; the If-Match guard, ADR 0035) and who is told of a row read by id (the
 * version a versioned GET answers). The scope is an object made per request and passed down
 * explicitly: there is no store of it anywhere else, and a handle without one only forwards.
 *
 * This file knows nothing of requests: the attachments are an interface that platform/idempotency and
 * platform/conditional implement (biome.json keeps src/core/db from importing either).
 */

/** What the code path says of one statement of a batch or one statement run alone. */
export interface StatementFacts {
  /** Whether it writes: drizzle's own kind of query, or the API it went through (`run`, `batch`). */
  readonly write: boolean;
  /**
   * The tables a drizzle query builder names (its own metadata, taken from the table object it was
   * built on); null for raw SQL, which says nothing of its tables.
   */
  readonly tables: readonly string[] | null;
}

/** Where a batch goes: the handle's own D1 object, and the binding it writes to (a session's origin). */
export interface WriteTarget {
  readonly raw: D1Database;
  readonly database: D1Database;
}

/**
 * What a request adds to its write batches. `attach` sees where the batch goes and what its
 * statements are, and returns the statements to run ahead of and behind them, or null; `committed`
 * gets the results of its `after` statements once the batch landed; `failed` may turn the batch's
 * error into the error the request answers with.
 */
export interface WriteAttachment {
  attach(target: WriteTarget, statements: readonly StatementFacts[]): Attached | null;
  committed(after: readonly D1Result[]): void;
  failed?(error: unknown): Error | null;
}

export interface Attached {
  before: D1PreparedStatement[];
  after: D1PreparedStatement[];
}

/** A row a request waits to see read by id (core/db/rows.ts `rowById` tells it the row's version). */
export interface RowWatch {
  readonly table: object;
  readonly key: string | number;
  version: number | null;
}

/**
 * One request's part in its database handles: made once per request (core/tenancy/request.ts), bound
 * into each handle its contexts get. Attachments and watches are added around the handler by the
 * middleware that needs them and removed after it.
 */
export class DbScope {
  private readonly attachments: WriteAttachment[] = [];
  private readonly watches: RowWatch[] = [];

  /** Adds `attachment` to every write batch of this request's handles until the returned call. */
  attach(attachment: WriteAttachment): () => void {
    this.attachments.push(attachment);
    return () => remove(this.attachments, attachment);
  }

  watch(row: RowWatch): () => void {
    this.watches.push(row);
    return () => remove(this.watches, row);
  }

  get attached(): readonly WriteAttachment[] {
    return this.attachments;
  }

  /** Whether the request's writes carry anything now (a context built now needs a handle of its own). */
  get carries(): boolean {
    return this.attachments.length > 0;
  }

  /** A row read by id through one of this request's handles: its version, to a watch of that row. */
  rowRead(table: object, key: string | number, version: number): void {
    for (const watch of this.watches) {
      if (watch.version === null && watch.table === table && String(watch.key) === String(key)) {
        watch.version = version;
      }
    }
  }
}

function remove<T>(list: T[], item: T): void {
  const at = list.indexOf(item);
  if (at >= 0) {
    list.splice(at, 1);
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

const RAW = Symbol("raw statement");

/** Facts a statement was prepared with by drizzle (absent for raw SQL: the call decides). */
interface Tagged {
  [RAW]: D1PreparedStatement;
  facts: StatementFacts | null;
}

function unwrap(statement: D1PreparedStatement): D1PreparedStatement {
  return (statement as unknown as Partial<Tagged>)[RAW] ?? statement;
}

/** A statement in a batch writes unless drizzle said it reads: a batch is the write API. */
function inBatch(statement: D1PreparedStatement): StatementFacts {
  return (statement as unknown as Partial<Tagged>).facts ?? RAW_WRITE;
}

const RAW_WRITE: StatementFacts = { write: true, tables: null };
const RAW_READ: StatementFacts = { write: false, tables: null };

/** What each attachment that applies adds to one batch. */
type Plan = { attachment: WriteAttachment; added: Attached }[];

class Handle {
  constructor(
    readonly raw: D1Database,
    readonly target: WriteTarget,
    readonly scope: DbScope | null,
  ) {}

  plan(statements: readonly StatementFacts[]): Plan | null {
    const attachments = this.scope?.attached;
    if (!attachments || attachments.length === 0 || !statements.some((s) => s.write)) {
      return null;
    }
    const plans: Plan = [];
    for (const attachment of attachments) {
      const added = attachment.attach(this.target, statements);
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
  async runPlanned<T>(real: D1PreparedStatement[], plans: Plan): Promise<D1Result<T>[]> {
    const before = plans.flatMap((p) => p.added.before);
    const after = plans.flatMap((p) => p.added.after);
    let results: D1Result<T>[];
    try {
      results = await d1(() => this.raw.batch<T>([...before, ...real, ...after]));
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

  async batch<T>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    const real = statements.map(unwrap);
    const plans = real.length > 0 ? this.plan(statements.map(inBatch)) : null;
    return plans ? this.runPlanned<T>(real, plans) : d1(() => this.raw.batch<T>(real));
  }
}

class HandleStatement implements Tagged {
  readonly [RAW]: D1PreparedStatement;
  constructor(
    private readonly handle: Handle,
    real: D1PreparedStatement,
    public facts: StatementFacts | null,
  ) {
    this[RAW] = real;
  }

  bind(...values: unknown[]): D1PreparedStatement {
    return new HandleStatement(
      this.handle,
      this[RAW].bind(...values),
      this.facts,
    ) as unknown as D1PreparedStatement;
  }

  /** One write alone becomes a batch with what the request attaches; reads run as they are. */
  private async alone(fallback: StatementFacts): Promise<D1Result | null> {
    const plans = this.handle.plan([this.facts ?? fallback]);
    if (!plans) {
      return null;
    }
    const [result] = await this.handle.runPlanned([this[RAW]], plans);
    return result as D1Result;
  }

  /** `run` is the write API: raw SQL run so writes. */
  async run(): Promise<D1Result> {
    return (await this.alone(RAW_WRITE)) ?? d1(() => this[RAW].run());
  }

  async all(): Promise<D1Result> {
    return (await this.alone(RAW_READ)) ?? d1(() => this[RAW].all());
  }

  async first(column?: string): Promise<unknown> {
    const result = await this.alone(RAW_READ);
    if (!result) {
      return d1(() => (column === undefined ? this[RAW].first() : this[RAW].first(column)));
    }
    const row = (result.results[0] ?? null) as Record<string, unknown> | null;
    return column === undefined || row === null ? row : row[column];
  }

  async raw(options?: { columnNames?: boolean }): Promise<unknown[]> {
    const result = await this.alone(RAW_READ);
    if (!result) {
      return d1(() => (options?.columnNames ? this[RAW].raw({ columnNames: true }) : this[RAW].raw()));
    }
    const rows = result.results as Record<string, unknown>[];
    const values = rows.map((row) => Object.values(row));
    return options?.columnNames ? [Object.keys(rows[0] ?? {}), ...values] : values;
  }
}

/**
 * `statement` (prepared on a handle from raw SQL) marked as a read of `tables`, so a batch carries it as
 * one: `rowById` sends its read as a batch of one, in which the slot owner check can ride
 * (core/tenancy/owner.ts), and a batch's raw SQL otherwise counts as a write.
 */
export function asRead(statement: D1PreparedStatement, tables: string[]): D1PreparedStatement {
  const tagged = statement as unknown as Partial<Tagged>;
  if (RAW in tagged) {
    tagged.facts = { write: false, tables };
  }
  return statement;
}

/** Each handle's scope, for `rowById` (core/db/rows.ts), which gets the handle and nothing else. */
const scopes = new WeakMap<D1Database, DbScope>();

/**
 * `raw` as a handle of core's: retried, and carrying `scope` (one request's) when given. `origin`
 * names the binding a D1 session was started from, so an attachment knows which database the batch
 * writes to (the idempotency mark of a write made through the session is the UPDATE of the
 * reservation's own row, as for a write through the binding, ADR 0036).
 */
export function d1Handle(raw: D1Database, scope: DbScope | null, origin: D1Database = raw): D1Database {
  const handle = new Handle(raw, { raw, database: origin }, scope);
  const db = {
    prepare: (query: string) =>
      new HandleStatement(handle, raw.prepare(query), null) as unknown as D1PreparedStatement,
    batch: <T = unknown>(statements: D1PreparedStatement[]) => handle.batch<T>(statements),
    exec: (query: string) => raw.exec(query),
    dump: () => (raw as unknown as { dump(): Promise<ArrayBuffer> }).dump(),
    withSession: (constraint?: string) => raw.withSession(constraint as never),
  } as unknown as D1Database;
  if (scope) {
    scopes.set(db, scope);
  }
  return db;
}

/** The request scope a handle carries, or undefined (a handle of no request's). */
export function scopeOfHandle(client: D1Database): DbScope | undefined {
  return scopes.get(client);
}

/** drizzle's description of a query it prepares (its cache metadata): the kind, and the tables it names. */
interface QueryMetadata {
  type?: "select" | "insert" | "update" | "delete";
  tables?: string[];
}

type PrepareQuery = (
  query: unknown,
  fields: unknown,
  executeMethod: string,
  ...rest: unknown[]
) => { stmt?: unknown };

/**
 * `db`, a drizzle database over a handle made by `d1Handle`, with statements that carry what drizzle
 * knows of them: whether the query builder writes (insert, update, delete), and the tables it was
 * built on. A statement drizzle prepares without metadata (`db.run(sql…)`) writes when it is run with
 * `run`.
 */
export function withStatementFacts<DB extends object>(db: DB): DB {
  const session = (db as unknown as { session: { prepareQuery: PrepareQuery } }).session;
  const prepareQuery = session.prepareQuery.bind(session);
  session.prepareQuery = (query, fields, executeMethod, ...rest) => {
    const prepared = prepareQuery(query, fields, executeMethod, ...rest);
    // (isResponseInArrayMode, customResultMapper, queryMetadata, cacheConfig)
    const metadata = rest[2] as QueryMetadata | undefined;
    const statement = prepared.stmt as Partial<Tagged> | undefined;
    if (statement && RAW in statement) {
      statement.facts = metadata?.type
        ? { write: metadata.type !== "select", tables: metadata.tables ?? [] }
        : { write: executeMethod === "run", tables: null };
    }
    return prepared;
  };
  return db;
}
