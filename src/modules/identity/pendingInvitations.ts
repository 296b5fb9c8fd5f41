import { and, desc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { platformAudit } from "../../core/audit";
import type { Duty, TenantCtx } from "../../core/context";
import { memberships, oneTimeTokens, users } from "../../core/db/identity-schema";
import { afterCursor, keysetPage, type ListQuery } from "../../core/db/paging";
import { NotFound } from "../../core/errors";
import { INVITATION_PURPOSES, retireInvitations, tokenTenantSql } from "./oneTimeTokens";

/**
 * A community's invitations that can still be accepted (issue 44): new accounts' set-password links
 * and existing accounts' join links, unused and unexpired. Identity keeps the tokens; the members module
 * masks the contacts and names the senders.
 */

export interface PendingInvitation {
  id: string;
  /** `account`: a new account's set-password link; `join`: a join link to an existing account. */
  kind: "account" | "join";
  /** The person as the inviter named them (contact whole: the caller masks it). */
  name: string;
  email: string | null;
  whatsapp: string | null;
  roles: Duty[];
  unitId: string | null;
  channel: "email" | "whatsapp" | null;
  invitedBy: string | null;
  expiresAt: string;
  createdAt: string;
}

const pendingSql = (ctx: TenantCtx) =>
  and(
    sql`${tokenTenantSql} = ${ctx.tenant.id}`,
    inArray(oneTimeTokens.purpose, INVITATION_PURPOSES),
    isNull(oneTimeTokens.usedAt),
    gt(oneTimeTokens.expiresAt, ctx.now().toISOString()),
  );

/** One page of the community's pending invitations, newest first (the cursor is the token row's id). */
export async function listPendingInvitations({ ctx, input }: { ctx: TenantCtx; input: ListQuery }) {
  const rows = await ctx.platform
    .select({
      id: oneTimeTokens.id,
      purpose: oneTimeTokens.purpose,
      data: oneTimeTokens.data,
      channel: oneTimeTokens.channel,
      invitedBy: oneTimeTokens.invitedBy,
      expiresAt: oneTimeTokens.expiresAt,
      createdAt: oneTimeTokens.createdAt,
      // A set-password link's membership exists already: its duties and house are the community's now.
      roles: memberships.roles,
      unitId: memberships.unitId,
      account: { name: users.name, email: users.email, whatsapp: users.whatsapp },
    })
    .from(oneTimeTokens)
    .leftJoin(
      memberships,
      and(eq(memberships.userId, oneTimeTokens.userId), eq(memberships.tenantId, ctx.tenant.id)),
    )
    .leftJoin(users, eq(users.id, oneTimeTokens.userId))
    .where(and(pendingSql(ctx), ...afterCursor(oneTimeTokens.id, input.cursor, "desc")))
    .orderBy(desc(oneTimeTokens.id))
    .limit(input.limit + 1);
  const page = keysetPage(rows, input.limit);
  return {
    items: page.items.map((row): PendingInvitation => {
      const data = row.data ?? {};
      // A join link made before invitations named their person shows no contact: the account's own
      // is not the inviter's to learn.
      const invitee =
        data.invitee ??
        (row.purpose === "invitation" && row.account
          ? row.account
          : { name: row.account?.name ?? "", email: null, whatsapp: null });
      return {
        id: row.id,
        kind: row.purpose === "join" ? "join" : "account",
        name: invitee.name,
        email: invitee.email,
        whatsapp: invitee.whatsapp,
        roles: row.purpose === "join" ? (data.roles ?? []) : (row.roles ?? data.roles ?? []),
        unitId: row.purpose === "join" ? (data.unitId ?? null) : (row.unitId ?? null),
        channel: row.channel,
        invitedBy: row.invitedBy,
        expiresAt: row.expiresAt,
        createdAt: row.createdAt,
      };
    }),
    nextCursor: page.nextCursor,
  };
}

/**
 * Revokes one pending invitation of this community: the link is retired (whoever opens it is told it
 * was withdrawn, 410 `invitation_retired`) and the audit record lands, in one batch. 404 for an
 * invitation of another community, one already used, expired or revoked, or no invitation at all. A
 * new account's membership stays, shown as invited (`diundang`) among the members: remove it there.
 */
export async function revokeInvitation({ ctx, id }: { ctx: TenantCtx; id: string }) {
  const row = await ctx.platform
    .select({ userId: oneTimeTokens.userId, purpose: oneTimeTokens.purpose })
    .from(oneTimeTokens)
    .where(and(eq(oneTimeTokens.id, id), pendingSql(ctx)))
    .get();
  if (!row) {
    throw new NotFound("Invitation");
  }
  const [retired] = await ctx.platform.batch([
    retireInvitations(ctx, { tenantId: ctx.tenant.id, id, reason: "revoked" }),
    platformAudit(ctx, {
      action: "member.invitation_revoke",
      targetType: "invitation",
      targetId: id,
      detail: { kind: row.purpose === "join" ? "join" : "account" },
    }),
  ]);
  if (retired.length === 0) {
    // Accepted or revoked between the read and the batch: the audit says what was asked, nothing changed.
    throw new NotFound("Invitation");
  }
}
