import { getTableName } from "drizzle-orm";
import type { TenantInfo } from "../context";
import { tenantSlotOwner } from "../db/tenant-schema";
import { callDependency } from "../dependency";
import type { Bindings } from "../env";
import { log } from "../http/log";
import { forgetTenant, tenantClosed } from "./registry";

/**
 * Whose database a slot is (ADR 0007, amended for issue 44). The registry caches tenant → slot per
 * isolate for 30 s (registry.ts), and a closed community's slot is emptied and claimed again by a new community
 * (wipe.ts, provision.ts): an isolate that cached the closed one could otherwise open the newcomer's
 * database inside that window. So every tenant database records its owner in `slot_owner` (one row,
 * written when the slot is claimed), and every database handle a tenant context gets checks it before
 * its first statement answers:
 *
 * - the check rides in the first statement's own batch (OWNER_GUARD_SQL below): no extra round trip, and a
 *   batch that writes is refused whole before any of it is applied to a database the tenant does not own;
 * - a statement declared to carry the check itself (`carryingOwnerCheck`: `rowById`'s read, the gate's scan)
 *   runs in its checked form instead, when it leads a handle's first batch: no statement added at all;
 * - `raw()` and `exec`, which have no batch form, wait for the full check first (`rowById`, the commonest
 *   first read, sends its row as a batch of one so that its check rides with it, core/db/rows.ts);
 * - the check runs once per handle: per request for the request's D1 session, per context for the
 *   primary (never cached across requests: an isolate-wide "slot N is A's" would be the very stale
 *   belief this guards against).
 *
 * A mismatch, or a slot emptied under the stale entry (no `slot_owner` table at all; only the closed
 * tenant's own closing context may find its slot so), answers as a closed community: 410
 * `tenant_closed`, and the isolate's cached entry is dropped. A slot claimed before the table existed
 * has the table (the migration made it) but no row: the first context to open it writes its tenant there if the platform database, read now on its primary, says that tenant holds the
 * slot (the legacy slot is adopted); otherwise it is refused like a mismatch.
 */
export const SLOT_OWNER_TABLE = getTableName(tenantSlotOwner);

const OWNER_SQL = `SELECT tenant_id FROM ${SLOT_OWNER_TABLE} WHERE id = 1`;

function errorText(error: unknown): string {
  if (error instanceof Error) {
    return `${error.message} ${error.cause instanceof Error ? error.cause.message : ""}`;
  }
  return String(error);
}

/** The owner the slot names, adopting a legacy slot (no row yet) for the tenant the platform says holds it. */
async function slotOwnerOf(bindings: Bindings, tenant: TenantInfo, db: D1Database): Promise<string | null> {
  let owner: string | null;
  try {
    owner = await db.prepare(OWNER_SQL).first<string>("tenant_id");
  } catch (error) {
    if (/no such table/i.test(errorText(error))) {
      // Emptied (wipe.ts). A closed tenant's own context (`closedTenantCtx`, read by id from a platform row
      // that still holds the slot, so nobody else can have claimed it) finds its slot emptied when the
      // closing resumes after a crash; anyone else finds no community here.
      return tenant.status === "ditutup" ? tenant.id : null;
    }
    throw error;
  }
  if (owner !== null) {
    return owner;
  }
  const holds = await bindings.PLATFORM_DB.prepare(
    "SELECT 1 AS held FROM tenants WHERE id = ?1 AND slot = ?2",
  )
    .bind(tenant.id, tenant.slot)
    .first<{ held: number }>();
  if (!holds) {
    return null;
  }
  const [, read] = await db.batch<{ tenant_id: string }>([
    db
      .prepare(`INSERT INTO ${SLOT_OWNER_TABLE} (id, tenant_id) VALUES (1, ?1) ON CONFLICT (id) DO NOTHING`)
      .bind(tenant.id),
    db.prepare(OWNER_SQL),
  ]);
  log("info", "tenancy.slot_adopted", { tenant: tenant.slug, slot: tenant.slot });
  return read?.results[0]?.tenant_id ?? null;
}

async function verifyOwner(bindings: Bindings, tenant: TenantInfo, db: D1Database): Promise<void> {
  const owner = await callDependency("D1", () => slotOwnerOf(bindings, tenant, db));
  if (owner !== tenant.id) {
    forgetTenant(tenant.slug);
    log("warn", "tenancy.slot_owner_mismatch", { tenant: tenant.slug, slot: tenant.slot });
    throw tenantClosed();
  }
}

const REAL = Symbol("owner-checked statement");

interface Checked {
  [REAL]: D1PreparedStatement;
  text?: string;
  /** What it was bound with, for its checked form (`carryingOwnerCheck`). */
  values?: unknown[];
}

function unwrap(statement: D1PreparedStatement): D1PreparedStatement {
  return (statement as unknown as Partial<Checked>)[REAL] ?? statement;
}

/**
 * The check riding in the first statement's own round trip: prepended to its batch, it answers nothing
 * when the slot names this tenant (or names nobody yet: a slot held since before owners were recorded,
 * which no other tenant can have claimed since, because claiming writes the row), and fails the whole
 * batch, before any write of it is applied, when the slot names another tenant (`json()` of a non-JSON
 * text is SQLite's way of raising an error from a read). A read, so a D1 session is not sent to the
 * primary for it.
 */
export const OWNER_GUARD_SQL = `SELECT CASE WHEN tenant_id = ?1 THEN 1 ELSE json('slot owner mismatch') END FROM ${SLOT_OWNER_TABLE} WHERE id = 1`;
const MISMATCH_RE = /malformed JSON/i;
const READ_RE = /^\s*select\b/i;

/**
 * The check as a LIMIT clause, for a statement that carries it itself (`carryingOwnerCheck`): `?param`
 * binds the tenant id. SQLite computes a LIMIT once, before the statement reads or writes a row, whether
 * or not any row then matches, so the check always runs: when the slot names this tenant it is -1 (no
 * limit: the statement answers as it would without it); when the slot names another tenant it fails
 * the statement (and its batch, before anything of it is applied) as OWNER_GUARD_SQL does; when it names
 * nobody yet (a legacy slot) it fails too, with SQLite's `integer overflow` (`abs` of the least
 * integer), so the handle makes the full check (adopting the slot) and runs the batch again as written.
 */
export function ownerCheckLimit(param: number): string {
  return (
    `LIMIT (SELECT CASE WHEN max(tenant_id) = ?${param} THEN -1 WHEN count(*) = 0 THEN abs(-9223372036854775808) ` +
    `ELSE json('slot owner mismatch') END FROM ${SLOT_OWNER_TABLE} WHERE id = 1)`
  );
}
const UNOWNED_RE = /integer overflow/i;

/** Statements that carry the check, by their SQL: the form each runs in while its handle is unchecked. */
const carried = new Map<string, string>();

/**
 * A statement that carries the slot owner check itself: `build(limit)` writes it, with `limit` as the
 * LIMIT of its outermost SELECT ("" for the statement as it runs on a checked handle), and `params` is
 * the number of parameters it is bound with (the tenant id is bound after them, `ownerCheckLimit`).
 * Answers the plain form, to prepare as any other; while a handle is unchecked, a batch led by it sends
 * the checked form in its place instead of OWNER_GUARD_SQL in front: one statement fewer for D1 to run
 * and answer (about 0.1 ms of an authenticated read's CPU on workerd, ADR 0015). For the statements that
 * commonly lead a request (`rowById`'s read, the gate's scan), built once per isolate.
 */
export function carryingOwnerCheck(params: number, build: (limit: string) => string): string {
  const sql = build("");
  carried.set(sql, build(ownerCheckLimit(params + 1)));
  return sql;
}

/** The statement `checked` carries the check for (`carryingOwnerCheck`), for tests that list statements. */
export function uncarried(checked: string): string | undefined {
  for (const [sql, form] of carried) {
    if (form === checked) {
      return sql;
    }
  }
  return undefined;
}

/**
 * The one check of a handle, made by its first statement. Until it has held, statements wait for the one
 * under way (which never rejects: `pending`), then either go straight (`ok`), fail with the refusal, or
 * carry the check themselves (the one before them failed for a reason of its own, a constraint say).
 */
class Gate {
  private ok = false;
  private refusal: unknown = null;
  private pending: Promise<void> | null = null;
  constructor(
    private readonly raw: D1Database,
    private readonly tenantId: string,
    private readonly verify: () => Promise<void>,
    private readonly refuse: () => never,
  ) {}

  private async settled(): Promise<void> {
    while (this.pending) {
      await this.pending;
    }
    if (this.refusal) {
      throw this.refusal;
    }
  }

  private track<T>(attempt: Promise<T>): void {
    const pending = attempt.then(
      () => undefined,
      () => undefined,
    );
    this.pending = pending;
    void pending.then(() => {
      if (this.pending === pending) {
        this.pending = null;
      }
    });
  }

  /** The full check; its refusal is kept for every later statement of the handle. */
  private async full(): Promise<void> {
    try {
      await this.verify();
      this.ok = true;
    } catch (error) {
      this.refusal = error;
      throw error;
    }
  }

  private refused(): never {
    try {
      this.refuse();
    } catch (error) {
      this.refusal = error;
      throw error;
    }
  }

  /**
   * `statements` as one batch, while the handle is unchecked with the check: carried by the first
   * statement when it is declared to (`carryingOwnerCheck`), else in front of them.
   */
  async batch<T>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    await this.settled();
    const real = statements.map(unwrap);
    if (this.ok) {
      return this.raw.batch<T>(real);
    }
    const attempt = this.guarded<T>(real, this.carrying(statements[0]));
    this.track(attempt);
    return attempt;
  }

  /** The checked form of `first` (`carryingOwnerCheck`), bound with its values and the tenant id. */
  private carrying(first: D1PreparedStatement | undefined): D1PreparedStatement | null {
    const statement = first as Partial<Checked> | undefined;
    const checked = statement?.text === undefined ? undefined : carried.get(statement.text);
    if (checked === undefined) {
      return null;
    }
    return this.raw.prepare(checked).bind(...(statement?.values ?? []), this.tenantId);
  }

  private async guarded<T>(
    statements: D1PreparedStatement[],
    carrying: D1PreparedStatement | null,
  ): Promise<D1Result<T>[]> {
    let results: D1Result<unknown>[];
    try {
      results = await this.raw.batch(
        carrying
          ? [carrying, ...statements.slice(1)]
          : [this.raw.prepare(OWNER_GUARD_SQL).bind(this.tenantId), ...statements],
      );
    } catch (error) {
      const text = errorText(error);
      if (MISMATCH_RE.test(text)) {
        this.refused();
      }
      if (!/no such table/i.test(text) && !(carrying && UNOWNED_RE.test(text))) {
        throw error;
      }
      // The slot was emptied (the owner table with it), a table of the batch is missing, or (a carried
      // check) the slot names nobody yet: the full check decides (only a closed tenant's own closing may
      // find its slot emptied; a legacy slot is adopted), then the batch runs as it was given, answering
      // its own error if it has one. A batch that failed applied nothing.
      await this.full();
      return this.raw.batch<T>(statements);
    }
    if (carrying) {
      this.ok = true;
      return results as D1Result<T>[];
    }
    const [guard, ...rest] = results;
    if (guard?.results.length === 0) {
      // No owner recorded yet (a slot held since before owners were): adopted, or refused.
      await this.full();
    }
    this.ok = true;
    return rest as D1Result<T>[];
  }

  /**
   * A statement with no batch form (`raw()`, which drizzle reads rows with; `exec`): the check as a
   * statement of its own, beside a read (the same round trip's time; the read answers only once the check
   * held), before anything else.
   */
  async pass<T>(text: string | undefined, call: () => Promise<T>): Promise<T> {
    await this.settled();
    if (this.ok) {
      return call();
    }
    const check = this.alone();
    this.track(check);
    if (text !== undefined && READ_RE.test(text)) {
      const result = call();
      result.catch(() => undefined);
      await check;
      return result;
    }
    await check;
    return call();
  }

  private async alone(): Promise<void> {
    let rows: unknown[];
    try {
      rows = (await this.raw.prepare(OWNER_GUARD_SQL).bind(this.tenantId).all()).results;
    } catch (error) {
      if (MISMATCH_RE.test(errorText(error))) {
        this.refused();
      }
      return this.full();
    }
    if (rows.length === 0) {
      return this.full();
    }
    this.ok = true;
  }
}

class CheckedStatement implements Checked {
  readonly [REAL]: D1PreparedStatement;
  constructor(
    private readonly gate: Gate,
    real: D1PreparedStatement,
    readonly text: string,
    readonly values?: unknown[],
  ) {
    this[REAL] = real;
  }

  bind(...values: unknown[]): D1PreparedStatement {
    return new CheckedStatement(
      this.gate,
      this[REAL].bind(...values),
      this.text,
      values,
    ) as unknown as D1PreparedStatement;
  }
  private async one(): Promise<D1Result> {
    const [result] = await this.gate.batch([this as unknown as D1PreparedStatement]);
    return result as D1Result;
  }
  run(): Promise<D1Result> {
    return this.one();
  }
  all(): Promise<D1Result> {
    return this.one();
  }
  async first(column?: string): Promise<unknown> {
    const row = ((await this.one()).results[0] ?? null) as Record<string, unknown> | null;
    if (column === undefined || row === null) {
      return row;
    }
    return row[column];
  }
  raw(options?: { columnNames?: boolean }): Promise<unknown[]> {
    return this.gate.pass(this.text, () =>
      options?.columnNames ? this[REAL].raw({ columnNames: true }) : this[REAL].raw(),
    );
  }
}

/**
 * `raw` (a slot's binding or a D1 session of it) behind the owner check of `tenant`: one handle, one
 * check. core/tenancy/sessions.ts builds every tenant context's database through this.
 */
export function ownerChecked(bindings: Bindings, tenant: TenantInfo, raw: D1Database): D1Database {
  const refuse = (): never => {
    forgetTenant(tenant.slug);
    log("warn", "tenancy.slot_owner_mismatch", { tenant: tenant.slug, slot: tenant.slot });
    throw tenantClosed();
  };
  const gate = new Gate(raw, tenant.id, () => verifyOwner(bindings, tenant, raw), refuse);
  return {
    prepare: (query: string) =>
      new CheckedStatement(gate, raw.prepare(query), query) as unknown as D1PreparedStatement,
    batch: <T = unknown>(statements: D1PreparedStatement[]) => gate.batch<T>(statements),
    exec: (query: string) => gate.pass(undefined, () => raw.exec(query)),
    dump: () => (raw as unknown as { dump(): Promise<ArrayBuffer> }).dump(),
    withSession: (constraint?: string) => raw.withSession(constraint as never),
  } as unknown as D1Database;
}
