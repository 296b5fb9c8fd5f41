import type { SubscriptionStatus } from "./db/platform-schema";
import type { FeatureFlag } from "./flags";

/** The community a tenant context acts in, as core resolved it (core/tenancy/registry.ts). */
export interface TenantInfo {
  id: string;
  slug: string;
  name: string;
  type: "RT" | "RW";
  parentId: string | null;
  flags: Record<FeatureFlag, boolean>;
  slot: number;
  /**
   * `ditutup` only in the one context core builds for a closed community that still holds its slot
   * (its final archive and its letters' verification records, `closedTenantCtx`); every other way in
   * answers 410 for a closed tenant.
   */
  status: "provisioning" | "active" | "suspended" | "ditutup";
  /** Written by billing; `nonaktif` makes the tenant read-only (402 on writes). */
  subscription: SubscriptionStatus;
}
