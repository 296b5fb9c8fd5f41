import { tenantSlotOwner } from "../db/tenant-schema";
import { defineModule, personalColumns, personalData } from "../module";

/**
 * The owner row holds no personal data: a tenant id. It is bookkeeping of the slot, like the migration
 * ledger, so archives leave it out (platform-ops/tables.ts) and an import never carries one community's
 * owner into another's database.
 */
export const tenancyModule = defineModule({
  name: "tenancy",
  routes: [],
  personalData: personalData(personalColumns(tenantSlotOwner, { other: [tenantSlotOwner.tenantId] })),
});
