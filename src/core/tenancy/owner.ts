import { getTableName } from "drizzle-orm";
import type { TenantInfo } from "../context";
import { tenantSlotOwner } from "../db/tenant-schema";
import { callDependency } from "../dependency";
import type { Bindings } from "../env";
import { log } from "../http/log";
import { defineModule } from "../module";
import { forgetTenant, tenantClosed } from "./registry";

/**
 * Whose database a slot is (ADR 0007, amended for issue 44). The registry caches tenant → slot per
 * isolate for 30 s (registry.ts), and a closed community's slot is emptied and claimed again by a new community
 * (wipe.ts, provision.ts): an isolate that cached the closed one could otherwise open the newcomer's
 * database inside that window. So every tenant database records its owner in `slot_owner` (one row,
 * written when the slot is claimed), and every database handle a tenant context gets checks it before
 * its first statement answers:
 *
 * - a read runs beside the check (no extra round trip before it) and answers only once the check held;
 * - a write, a batch that writes, or raw SQL waits for the check, so nothing is written to a database
 *   the tenant does not own;
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
const READ_RE = /^\s*select\b/i;

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
}

function unwrap(statement: D1PreparedStatement): D1PreparedStatement {
  return (statement as unknown as Partial<Checked>)[REAL] ?? statement;
}

function textOf(statement: D1PreparedStatement): string | undefined {
  return (statement as unknown as Partial<Checked>).text;
}

/** The one check of a handle, started by its first statement. */
class Gate {
  private verified: Promise<void> | null = null;
  constructor(private readonly verify: () => Promise<void>) {}

  async pass<T>(texts: readonly (string | undefined)[], call: () => Promise<T>): Promise<T> {
    this.verified ??= this.verify();
    if (texts.length > 0 && texts.every((text) => text !== undefined && READ_RE.test(text))) {
      const result = call();
      // The check's refusal is the answer, whatever the read meets in an emptied or foreign database.
      result.catch(() => undefined);
      await this.verified;
      return result;
    }
    await this.verified;
    return call();
  }
}

class CheckedStatement implements Checked {
  readonly [REAL]: D1PreparedStatement;
  constructor(
    private readonly gate: Gate,
    real: D1PreparedStatement,
    readonly text: string,
  ) {
    this[REAL] = real;
  }

  bind(...values: unknown[]): D1PreparedStatement {
    return new CheckedStatement(
      this.gate,
      this[REAL].bind(...values),
      this.text,
    ) as unknown as D1PreparedStatement;
  }
  run(): Promise<D1Result> {
    return this.gate.pass([this.text], () => this[REAL].run());
  }
  all(): Promise<D1Result> {
    return this.gate.pass([this.text], () => this[REAL].all());
  }
  first(column?: string): Promise<unknown> {
    return this.gate.pass([this.text], () =>
      column === undefined ? this[REAL].first() : this[REAL].first(column),
    );
  }
  raw(options?: { columnNames?: boolean }): Promise<unknown[]> {
    return this.gate.pass([this.text], () =>
      options?.columnNames ? this[REAL].raw({ columnNames: true }) : this[REAL].raw(),
    );
  }
}

/**
 * `raw` (a slot's binding or a D1 session of it) behind the owner check of `tenant`: one handle, one
 * check. core/tenancy/sessions.ts builds every tenant context's database through this.
 */
export function ownerChecked(bindings: Bindings, tenant: TenantInfo, raw: D1Database): D1Database {
  const gate = new Gate(() => verifyOwner(bindings, tenant, raw));
  return {
    prepare: (query: string) =>
      new CheckedStatement(gate, raw.prepare(query), query) as unknown as D1PreparedStatement,
    batch: <T = unknown>(statements: D1PreparedStatement[]) =>
      gate.pass(statements.map(textOf), () => raw.batch<T>(statements.map(unwrap))),
    exec: (query: string) => gate.pass([undefined], () => raw.exec(query)),
    dump: () => (raw as unknown as { dump(): Promise<ArrayBuffer> }).dump(),
    withSession: (constraint?: string) => raw.withSession(constraint as never),
  } as unknown as D1Database;
}

/**
 * The owner row holds no personal data: a tenant id. It is bookkeeping of the slot, like the migration
 * ledger, so archives leave it out (platform-ops/tables.ts) and an import never carries one community's
 * owner into another's database.
 */
export const tenancyModule = defineModule({
  name: "tenancy",
  routes: [],
  personalData: { [SLOT_OWNER_TABLE]: { other: ["tenant_id"] } },
});
