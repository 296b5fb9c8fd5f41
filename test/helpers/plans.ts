import { createExecutionContext } from "cloudflare:test";
import worker from "../../src/index";
import { countingD1, tenantD1 } from "./d1";
import { bindings, type TestTenant } from "./harness";

/**
 * A GET through the Worker with the tenant's database counted: its answer and the SQL of each of its
 * round trips to that database (a batch is one trip), for tests that read the plans of a route's reads.
 */
export async function countedGet(
  tenant: Pick<TestTenant, "slot">,
  token: string,
  path: string,
): Promise<{ res: Response; trips: string[][] }> {
  const slot = `TENANT_DB_${String(tenant.slot).padStart(2, "0")}`;
  const trips: string[][] = [];
  const env = { ...bindings, [slot]: countingD1(tenantD1(tenant), trips) } as typeof bindings;
  const res = await worker.fetch(
    new Request(`http://api.test${path}`, { headers: { Authorization: `Bearer ${token}` } }),
    env,
    createExecutionContext(),
  );
  return { res, trips };
}

/** The steps of `EXPLAIN QUERY PLAN` for `sql` on the tenant's database, each `?` bound to `param`. */
export async function planOf(
  tenant: Pick<TestTenant, "slot">,
  sql: string,
  param: string | number,
): Promise<string[]> {
  const params = Array.from(sql.matchAll(/\?/g), () => param);
  const plan = await tenantD1(tenant)
    .prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<{ detail: string }>();
  return plan.results.map((r) => r.detail);
}
