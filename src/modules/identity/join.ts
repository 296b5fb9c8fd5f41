import { platformAudit } from "../../core/audit";
import type { PlatformCtx } from "../../core/context";
import { isUniqueViolation } from "../../core/db/errors";
import { memberships, users } from "../../core/db/identity-schema";
import { tenants } from "../../core/db/platform-schema";
import { rowById } from "../../core/db/rows";
import { Conflict, Forbidden, Invalid, NotFound } from "../../core/errors";
import { newId } from "../../core/ids";
import { isPersonTaken, personTaken } from "./accountConflicts";
import { membershipStanding } from "./duties";
import { identityRateLimit as rateLimit } from "./limits";
import {
  consumeOneTimeToken,
  invitationRetired,
  isSuperseded,
  peekOneTimeToken,
  retireInvitations,
} from "./oneTimeTokens";
import { tenantRef } from "./service";

const FAILURES = {
  token_invalid: "This link is not valid.",
  token_expired: "This link has expired; ask the community's staff to approve you again.",
} as const;

/**
 * The account holder says yes to a join link: the token is spent by the one UPDATE that checks it, and
 * only then does the resident membership exist. The token is the proof, as with a set-password link:
 * it reached the account's own email or WhatsApp. No session is opened; the person signs in as usual.
 * A spent link answers 409 `token_used`, so a second click creates nothing; a withdrawn one (a newer
 * invitation to the same person, the admin's revocation, the member's removal) 410 `invitation_retired`.
 */
export async function acceptJoin({ ctx, input }: { ctx: PlatformCtx; input: { token: string } }) {
  await rateLimit(ctx.env, [{ policy: "token-exchange:ip", subject: ctx.ip }]);
  const db = ctx.platform;
  // The community's latest word on the membership is its newest invitation: an older link (a duty it
  // no longer offers) is retired here, before anything is spent (issue 44).
  const peeked = await peekOneTimeToken(ctx, ["join"], input.token);
  if (peeked.ok && peeked.tenantId && (await isSuperseded(ctx, peeked))) {
    await retireInvitations(ctx, { tenantId: peeked.tenantId, id: peeked.id, reason: "replaced" });
    throw invitationRetired();
  }
  const result = await consumeOneTimeToken(ctx, ["join"], input.token);
  if (!result.ok) {
    if (result.retired) {
      throw invitationRetired();
    }
    if (result.reason === "token_used") {
      throw new Conflict("token_used", "This link was already used.");
    }
    throw new Invalid(result.reason, FAILURES[result.reason], [{ field: "token", message: result.reason }]);
  }
  const { tenantId, unitId, roles = [], personId = null } = result.data;
  const [user, tenant] = await Promise.all([
    rowById(db, users, result.userId),
    tenantId ? rowById(db, tenants, tenantId) : undefined,
  ]);
  if (!tenant || !user || tenant.status === "ditutup") {
    throw new NotFound("Community");
  }
  if (user.status !== "active") {
    throw new Forbidden("account_disabled", "This account is disabled.");
  }
  try {
    await db.batch([
      db.insert(memberships).values({
        id: newId(),
        userId: user.id,
        tenantId: tenant.id,
        roles,
        unitId: unitId ?? null,
        personId,
      }),
      platformAudit(
        { ...ctx, actor: { kind: "system", reason: "join_link_accepted" } },
        {
          tenantId: tenant.id,
          action: "membership.join_accepted",
          targetType: "user",
          targetId: user.id,
          detail: { roles },
        },
      ),
    ]);
  } catch (error) {
    if (isUniqueViolation(error, "memberships.user_id")) {
      throw new Conflict("already_member", "You are already a member of this community.");
    }
    // Staff linked someone else to the same family-card person after this link was sent.
    if (isPersonTaken(error)) {
      throw personTaken();
    }
    throw error;
  }
  const { resident } = membershipStanding({ roles, unitId: unitId ?? null });
  return { tenant: tenantRef(tenant), roles, resident };
}
