import { and, desc, eq, ne } from "drizzle-orm";
import type { PlatformCtx } from "../../core/context";
import { memberships, users } from "../../core/db/identity-schema";
import { tenants } from "../../core/db/platform-schema";
import { rowById } from "../../core/db/rows";
import { Conflict, Invalid, NotFound } from "../../core/errors";
import { membershipStanding } from "./duties";
import { identityRateLimit as rateLimit } from "./limits";
import { invitationRetired, isSuperseded, peekOneTimeToken } from "./oneTimeTokens";
import { tenantRef } from "./service";

const FAILURES = {
  token_invalid: "This link is not valid.",
  token_expired: "This link has expired; ask the community's staff to send a new one.",
} as const;

/**
 * What an invitation or join link is for, before the person acts on it: the community, the duties, and
 * whether the account still needs a password. Nothing is spent. The token is the proof, as for accepting
 * it: it reached the account's own email or WhatsApp, so its holder may see the account's name and, for
 * a set-password link, the sign-in name to use once the password is set. A reset link (a person who
 * asked for one knows why) is not an invitation: 400 `token_invalid` like an unknown token. A withdrawn
 * or replaced link answers 410 `invitation_retired`, as accepting it does.
 */
export async function previewInvitation({ ctx, input }: { ctx: PlatformCtx; input: { token: string } }) {
  await rateLimit(ctx.env, [{ policy: "token-exchange:ip", subject: ctx.ip }]);
  const db = ctx.platform;
  const result = await peekOneTimeToken(ctx, ["invitation", "join"], input.token);
  if (!result.ok) {
    if (result.retired) {
      throw invitationRetired();
    }
    if (result.reason === "token_used") {
      throw new Conflict("token_used", "This link was already used.");
    }
    throw new Invalid(result.reason, FAILURES[result.reason], [{ field: "token", message: result.reason }]);
  }
  // An older link than the community's newest invitation to the person is withdrawn, as accepting says.
  if (await isSuperseded(ctx, result)) {
    throw invitationRetired();
  }
  const user = await rowById(db, users, result.userId);
  if (!user) {
    throw new NotFound("Community");
  }
  if (result.purpose === "join") {
    const { tenantId, unitId = null, roles = [] } = result.data;
    const tenant = tenantId ? await rowById(db, tenants, tenantId) : undefined;
    if (!tenant || tenant.status === "ditutup") {
      throw new NotFound("Community");
    }
    const { resident } = membershipStanding({ roles, unitId });
    return {
      kind: "join" as const,
      hasAccount: true,
      name: user.name,
      signInWith: null,
      tenant: tenantRef(tenant),
      roles,
      resident,
    };
  }
  // A set-password link belongs to the membership staff made with the account: the newest one standing.
  const row = await db
    .select({ membership: memberships, tenant: tenants })
    .from(memberships)
    .innerJoin(tenants, eq(tenants.id, memberships.tenantId))
    .where(and(eq(memberships.userId, user.id), ne(tenants.status, "ditutup")))
    .orderBy(desc(memberships.createdAt))
    .get();
  if (!row) {
    throw new NotFound("Community");
  }
  const { roles, resident } = membershipStanding(row.membership);
  return {
    kind: "invitation" as const,
    hasAccount: user.passwordHash !== null,
    name: user.name,
    signInWith: { email: user.email, whatsapp: user.email ? null : user.whatsapp },
    tenant: tenantRef(row.tenant),
    roles,
    resident,
  };
}
