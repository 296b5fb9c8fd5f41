import type { TenantCtx } from "./context";
import type { FeatureFlag } from "./flags";

/**
 * A dashboard indicator a module contributes to `GET /api/statistik/operasional`. Modules list their
 * indicators in their module definition; the route computes those whose module is on for the tenant,
 * so adding a module adds its indicator without touching the route.
 */
export interface Indicator {
  key: string;
  label: string;
  flag?: FeatureFlag;
  compute(ctx: TenantCtx): Promise<number>;
}
