import type { PlatformCtx, TenantCtx, TenantInfo } from "../context";
import { Forbidden, NotFound } from "../errors";
import { tenantRowById } from "./contexts";
import { tenantClosed, tenantFields } from "./registry";
import { withTenant } from "./system";

/**
 * A closed community (status `ditutup`) that still holds its slot: its database, for the two readers
 * that need it after the close, both before the slot is emptied (`tenants/closing.ts`): the final
 * archive (ADR 0026) and the copy of its letters' verification records (`surat/kept.ts`, issue 42).
 * Its own file so that biome.json's no-closed-tenant-ctx rule keeps every import of this path to those
 * two callers (ADR 0050). The actor is `system`. The row is read here by id, so no caller names a slot;
 * a tenant that is not closed is 404, and one whose slot went back to the pool is 410.
 */
export async function closedTenantCtx(base: PlatformCtx, id: string): Promise<TenantCtx> {
  // Only the platform closes a community (the operator's DELETE /api/platform/tenants/:id, then the
  // close's own steps) and builds its archives (an operator's request, the hourly job): a context of
  // anyone else, a tenant's own admin or a service included, is refused before anything is read
  // (issue 48; biome.json also keeps the import to those two callers).
  const { actor } = base;
  if (!(actor.kind === "system" || (actor.kind === "user" && actor.roles.includes("super_admin")))) {
    throw new Forbidden();
  }
  const row = await tenantRowById(base, id);
  if (row.status !== "ditutup") {
    throw new NotFound("Tenant", "tenant_not_found");
  }
  if (row.slot === null) {
    throw tenantClosed();
  }
  const tenant: TenantInfo = { ...tenantFields(row), slot: row.slot, status: "ditutup" };
  return withTenant(base, tenant, { kind: "system", reason: `closing:${row.slug}` });
}
