/**
 * Duties a member holds in a community (ADR 0027). They come on top of residency, never instead of it:
 * a ketua RT who lives in the RT is a resident with the `admin` duty. `satpam` is the gate guard.
 */
export const DUTIES = ["sekretaris", "bendahara", "admin", "satpam"] as const;
export type Duty = (typeof DUTIES)[number];

/**
 * What an access line names: a duty, or `warga` for "lives here". A member's effective roles are their
 * duties plus `warga` when they are a resident (see `effectiveRoles`).
 */
export const TENANT_ROLES = ["warga", "bendahara", "sekretaris", "admin", "satpam"] as const;
export type TenantRole = (typeof TENANT_ROLES)[number];
export type Role = TenantRole | "super_admin";

/**
 * A member is a resident when they have a house in the community, or when they hold no duty at all (a
 * resident who has not yet completed their profile). A hired guard with no house is not one.
 */
export function isResident(duties: readonly Duty[], unitId: string | null): boolean {
  return unitId !== null || duties.length === 0;
}

/** The roles an access line is matched against: the duties, plus `warga` for a resident. */
export function effectiveRoles(duties: readonly Duty[], resident: boolean): TenantRole[] {
  return resident ? ["warga", ...duties] : [...duties];
}

/** Who is acting. Services branch on `kind`; routes never read headers themselves. */
export type Actor =
  | {
      kind: "user";
      userId: string;
      /** Effective roles: `["super_admin"]` for an operator, else duties plus `warga` for a resident. */
      roles: readonly Role[];
      sessionId: string;
      tenantSlug: string | null;
      /**
       * The member's house in `tenantSlug` as the request is served (the token's `unit`, or the
       * membership's newer version from the feed: ADR 0043), null for none; absent when the token does
       * not say (an operator, a token signed before the claim existed): ask identity's `callerUnitId`.
       */
      unitId?: string | null;
    }
  | { kind: "device"; deviceId: string; tenantSlug: string; adapter: string }
  | { kind: "service"; name: string }
  | { kind: "public"; ip: string | null }
  | { kind: "system"; reason: string };

export type UserActor = Extract<Actor, { kind: "user" }>;
