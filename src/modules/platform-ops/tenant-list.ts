import type { PlatformCtx } from "../../core/context";
import type { ListQuery } from "../../core/db/paging";

/**
 * What an operator's list of one community's records takes (`GET /api/platform/tenants/:id/erasures`,
 * `…/archives`): the community by id, which the verb looks up first so an unknown one is 404
 * `tenant_not_found` (not an empty page), and the page asked for.
 */
export interface TenantListArgs {
  ctx: PlatformCtx;
  id: string;
  input: ListQuery;
}
