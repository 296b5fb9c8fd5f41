import { and, asc, eq, isNull, ne, not, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { forgetSession } from "../../core/auth/liveness";
import type { Duty, PlatformCtx } from "../../core/context";
import { memberships, sessions, users } from "../../core/db/identity-schema";
import { inList } from "../../core/db/lists";
import { tenants } from "../../core/db/platform-schema";
import { Conflict } from "../../core/errors";
import {
  accountByContact,
  type InvitingCtx,
  inviteMember,
  newInvitationToken,
  type PreparedInvitation,
} from "./accounts";
import { holdsDutySql, signedInSql } from "./duties";
import { deliverInvitation } from "./invitations";
import { retireTokens } from "./oneTimeTokens";

/**
 * What the operator does with a community's people (issue 27, items 1 and 6): count its admins, invite
 * one, and end every sign-in in it when it closes. Identity keeps the tables; the tenants module commits
 * the statements beside its own change and audit record.
 */

/** An admin is a membership holding the duty whose account is not disabled (as the committee counts). */
const activeAdmin = and(holdsDutySql("admin"), eq(users.status, "active"));

/**
 * How many admins each of `tenantIds` has, in one grouped query (the ids travel as one JSON parameter):
 * as the last-admin guard counts them, only those who have signed in (issue 44, P7).
 */
export async function adminCounts({
  ctx,
  tenantIds,
}: {
  ctx: PlatformCtx;
  tenantIds: readonly string[];
}): Promise<Map<string, number>> {
  if (tenantIds.length === 0) {
    return new Map();
  }
  const rows = await ctx.platform
    .select({ tenantId: memberships.tenantId, admins: sql<number>`count(*)` })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        inList(memberships.tenantId, tenantIds),
        activeAdmin,
        signedInSql(sql`${users.id}`, sql`${memberships.tenantId}`),
      ),
    )
    .groupBy(memberships.tenantId);
  return new Map(rows.map((r) => [r.tenantId, Number(r.admins)]));
}

/** How many admins of `tenantId` were invited and never signed in (their link can be sent again). */
export async function invitedAdminCount({ ctx, tenantId }: { ctx: PlatformCtx; tenantId: string }) {
  const row = await ctx.platform
    .select({ admins: sql<number>`count(*)` })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        eq(memberships.tenantId, tenantId),
        activeAdmin,
        not(signedInSql(sql`${users.id}`, sql`${memberships.tenantId}`)),
      ),
    )
    .get();
  return Number(row?.admins ?? 0);
}

/** Communities that are not closed and have no admin: nobody there can run the committee. */
export async function tenantsWithoutAdmin({ ctx }: { ctx: PlatformCtx }) {
  return ctx.platform
    .select({ id: tenants.id, slug: tenants.slug, name: tenants.name, status: tenants.status })
    .from(tenants)
    .where(
      and(
        ne(tenants.status, "ditutup"),
        sql`NOT EXISTS (SELECT 1 FROM ${memberships} JOIN ${users} ON ${users.id} = ${memberships.userId} WHERE ${memberships.tenantId} = ${tenants.id} AND ${activeAdmin})`,
      ),
    )
    .orderBy(asc(tenants.slug));
}

export interface AdminInvitee {
  fullName: string;
  /** At least one of email and WhatsApp (the caller's schema says so). */
  email: string | null;
  whatsapp: string | null;
}

export interface PreparedAdminInvitation extends PreparedInvitation {
  /**
   * `invited`: a new account with its set-password link, or a join link for an account that is not a
   * member here (the operator cannot tell which); `resent`: a member who never set a password gets a
   * fresh set-password link; `duty_added`: a member with a password gains the admin duty and is told.
   */
  outcome: "invited" | "resent" | "duty_added";
}

/**
 * The operator invites an admin into a community (the first one at creation, or another later). Someone
 * who is not a member is invited as any member is (`inviteMember`: new account or join link, never a
 * silent enrolment). A member is already in the community on their own word, so the operator may give
 * them the duty: one who never set a password gets a fresh set-password link (earlier invitation and
 * reset links retired), one with a password is told they are now its admin. 409 `already_member` for an
 * admin who already has a password: there is nothing to send. Whatever happened, the answer's channel
 * is the one the operator's input implies, as for `inviteMember`.
 */
export async function inviteAdmin({
  ctx,
  input,
}: {
  ctx: InvitingCtx;
  input: AdminInvitee;
}): Promise<PreparedAdminInvitation> {
  const roles: Duty[] = ["admin"];
  const account = await accountByContact(ctx, input);
  const membership = account
    ? await ctx.platform
        .select({ id: memberships.id, roles: memberships.roles })
        .from(memberships)
        .where(and(eq(memberships.userId, account.id), eq(memberships.tenantId, ctx.tenant.id)))
        .get()
    : undefined;
  if (!account || !membership) {
    const prepared = await inviteMember({ ctx, input: { ...input, unitId: null, roles } });
    return { statements: prepared.statements, send: prepared.send, outcome: "invited" };
  }
  const isAdmin = membership.roles.includes("admin");
  if (isAdmin && account.passwordHash !== null) {
    throw new Conflict("already_member", "This person is already an admin of this community.");
  }
  const grant = ctx.platform
    .update(memberships)
    .set({ roles: [...membership.roles, "admin"] })
    .where(and(eq(memberships.id, membership.id), sql`NOT ${holdsDutySql("admin")}`));
  if (account.passwordHash !== null) {
    return {
      statements: [grant],
      outcome: "duty_added",
      send: async () => {
        // A member already: the answer names the channel the message really took (issue 45), which
        // may be their number when the operator typed an email they do not have.
        return deliverInvitation(ctx, {
          target: account,
          token: null,
          roles,
          idempotencyKey: `admin-duty:${membership.id}:${ctx.requestId}`,
        });
      },
    };
  }
  const invitation = await newInvitationToken(ctx, {
    purpose: "invitation",
    userId: account.id,
    invitee: { name: input.fullName, email: input.email, whatsapp: input.whatsapp },
  });
  // Retiring first: the new token is not yet there to be retired with the old ones.
  const relink: [BatchItem<"sqlite">, BatchItem<"sqlite">, BatchItem<"sqlite">] = [
    invitation.retire,
    retireTokens(ctx, account.id, ["invitation", "password_reset"]),
    invitation.insert,
  ];
  return {
    statements: isAdmin ? relink : [grant, ...relink],
    outcome: "resent",
    send: async () => {
      // Re-sent to the member's own contact: the answer names the channel it really took (issue 45).
      return deliverInvitation(ctx, {
        target: account,
        token: invitation.token,
        roles,
        idempotencyKey: `invitation:${invitation.id}`,
      });
    },
  };
}

/**
 * Ends every sign-in in a community (it is closing): commit it in the closing batch, then hand its
 * result to `forgetEndedSessions` so this isolate refuses the old tokens at once.
 */
export function endCommunitySessions({ ctx, tenantId }: { ctx: PlatformCtx; tenantId: string }) {
  return ctx.platform
    .update(sessions)
    .set({ revokedAt: ctx.now().toISOString() })
    .where(and(eq(sessions.tenantId, tenantId), isNull(sessions.revokedAt)))
    .returning({ familyId: sessions.familyId });
}

export function forgetEndedSessions(ended: readonly { familyId: string }[]): void {
  for (const familyId of new Set(ended.map((r) => r.familyId))) {
    forgetSession(familyId);
  }
}
