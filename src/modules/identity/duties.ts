import { type SQL, sql } from "drizzle-orm";
import { type Duty, effectiveRoles, isResident } from "../../core/context";
import { memberships, sessions, users } from "../../core/db/identity-schema";

/**
 * Duties and residency in SQL, for identity's own queries over `memberships` (ADR 0027): a member is a
 * resident when they have a house, or hold no duty at all (core/context.ts `isResident`, which this
 * must agree with). A membership ended by a move-out (`grace_until` set, issue 45) is no resident.
 */
export const residentSql: SQL = sql`((${memberships.unitId} IS NOT NULL OR ${memberships.roles} = '[]') AND ${memberships.graceUntil} IS NULL)`;

/** The membership holds `duty` (one of its roles). */
export function holdsDutySql(duty: Duty): SQL {
  return sql`EXISTS (SELECT 1 FROM json_each(${memberships.roles}) WHERE json_each.value = ${duty})`;
}

/**
 * The account `userSql` has accepted its membership of `tenantSql` (issue 44, P7): it has set a
 * password, or it has signed in to that community (a session there, ended or not). An admin invited
 * with a new account who never did either is not yet "another admin": their link may sit unread.
 */
export function signedInSql(userSql: SQL, tenantSql: SQL): SQL {
  return sql`(EXISTS (SELECT 1 FROM ${users} AS signed WHERE signed.id = ${userSql} AND signed.password_hash IS NOT NULL)
    OR EXISTS (SELECT 1 FROM ${sessions} AS seen WHERE seen.user_id = ${userSql} AND seen.tenant_id = ${tenantSql}))`;
}

/** The membership holds any of `duties`. */
export function holdsAnyDutySql(duties: readonly Duty[]): SQL {
  return sql`EXISTS (SELECT 1 FROM json_each(${memberships.roles}) WHERE json_each.value IN (${sql.join(
    duties.map((d) => sql`${d}`),
    sql`, `,
  )}))`;
}

/**
 * How a membership presents itself in answers: its duties and whether the member lives there. One
 * ended by a move-out and kept for its grace period (issue 45) is neither: its sign-in reaches no route
 * of the community, only the person's own data (`/api/user/*`).
 */
export function membershipStanding(m: {
  roles: readonly Duty[];
  unitId: string | null;
  graceUntil?: string | null;
}) {
  const resident = !m.graceUntil && isResident(m.roles, m.unitId);
  return { roles: [...m.roles], resident, effective: effectiveRoles(m.roles, resident) };
}
