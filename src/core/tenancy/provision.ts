import type { PlatformCtx } from "../context";
import { isUniqueViolation } from "../db/errors";
import { Conflict, Unavailable } from "../errors";
import { claimSlotDatabase, slotCount } from "./slots";
import { bindingsOf } from "./system";

/**
 * The lowest free slot is chosen and taken in one statement, against unique indexes on slug and slot:
 * two concurrent creates can never share a slot, and the loser of a slot race simply tries the next.
 * A slot is free when no tenant row holds it: a closed community keeps its slot until the slot has been
 * emptied (wipe.ts), and rows whose slot went back to the pool hold NULL, which `NOT IN` must not see
 * (one NULL in the list would make every slot look taken).
 */
const CLAIM_SQL = `
INSERT INTO tenants (id, slug, name, type, parent_id, flags, slot, status, updated_at)
SELECT ?1, ?2, ?3, ?4, ?5, ?6, free.n, 'provisioning', ?7
FROM (
  WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?8)
  SELECT n FROM seq WHERE n NOT IN (SELECT slot FROM tenants WHERE slot IS NOT NULL) ORDER BY n LIMIT 1
) AS free
RETURNING slot`;

export interface NewTenant {
  id: string;
  slug: string;
  name: string;
  type: "RT" | "RW";
  parentId: string | null;
  flags: Record<string, boolean>;
}

/**
 * Inserts the tenant row `provisioning` with a free database slot, migrates that database and writes the
 * tenant as its owner (owner.ts). If the migration fails the row stays `provisioning` and the tenant's first request finishes it
 * (resolveTenant), so the caller only has to mark it active.
 */
export async function provisionTenant(ctx: PlatformCtx, tenant: NewTenant): Promise<number> {
  const bindings = bindingsOf(ctx);
  const slots = slotCount(bindings);
  const now = ctx.now().toISOString();
  for (let attempt = 0; attempt < 5; attempt++) {
    let row: { slot: number } | null;
    try {
      row = await bindings.PLATFORM_DB.prepare(CLAIM_SQL)
        .bind(
          tenant.id,
          tenant.slug,
          tenant.name,
          tenant.type,
          tenant.parentId,
          JSON.stringify(tenant.flags),
          now,
          slots,
        )
        .first<{ slot: number }>();
    } catch (error) {
      if (isUniqueViolation(error, "tenants.slug")) {
        throw new Conflict("slug_taken", `The slug ${tenant.slug} is already taken.`);
      }
      if (isUniqueViolation(error, "tenants.slot")) {
        continue;
      }
      throw error;
    }
    if (!row) {
      throw new Unavailable("no_free_slot", "Every tenant database slot is taken; add slots and redeploy.");
    }
    await claimSlotDatabase(bindings, row.slot, tenant.id);
    return row.slot;
  }
  throw new Unavailable("no_free_slot", "Could not claim a tenant database slot; try again.");
}
