import { and, eq, gt, isNotNull, isNull, ne } from "drizzle-orm";
import { platformAudit } from "../../core/audit";
import { forgetSession } from "../../core/auth/liveness";
import { hashPassword, verifyPassword } from "../../core/auth/password";
import { ACCESS_TOKEN_TTL_SECONDS, signAccessToken } from "../../core/auth/tokens";
import type { Duty, PlatformCtx } from "../../core/context";
import { sessions, users } from "../../core/db/identity-schema";
import { rowById } from "../../core/db/rows";
import { Forbidden, Gone, Unauthorized } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { log } from "../../core/http/log";
import { newId, randomToken, sha256Hex } from "../../core/ids";
import { addDays } from "../../core/time";
import { notifyFor } from "../../platform/notify";
import type { Defer } from "./background";
import { membershipStanding } from "./duties";
import { addressBlock, identityRateLimit as rateLimit, startLoginAttempt } from "./limits";
import type { LoginInput } from "./schemas";
import { membershipsOf, type TenantRow, tenantRef, type UserRow } from "./service";
import { alertOwnerOfGuessing } from "./signInAlert";

/** What a session carries: the member's duties and residency in its tenant, or the operator's role. */
interface Standing {
  roles: readonly (Duty | "super_admin")[];
  resident: boolean;
  /** The membership and its version, named in the token so a later change reaches it (ADR 0043). */
  membership?: { id: string; version: number; unitId: string | null };
}

const OPERATOR: Standing = { roles: ["super_admin"], resident: false };

const standingIn = (membership: {
  id: string;
  roles: Duty[];
  unitId: string | null;
  rowVersion: number;
  graceUntil?: string | null;
}): Standing => {
  const { roles, resident } = membershipStanding(membership);
  return {
    roles,
    resident,
    membership: { id: membership.id, version: membership.rowVersion, unitId: membership.unitId },
  };
};

export const REFRESH_TOKEN_TTL_DAYS = 30;

const refreshExpiry = (ctx: PlatformCtx) => addDays(ctx.now(), REFRESH_TOKEN_TTL_DAYS).toISOString();

/** Signs one access token of a session. `sid` is the session family, stable across rotations. */
async function tokensFor(
  ctx: PlatformCtx,
  user: UserRow,
  standing: Standing,
  tenant: TenantRow | null,
  familyId: string,
  refreshToken: string,
) {
  const accessToken = await signAccessToken(ctx.config, {
    sub: user.id,
    tenant: tenant?.slug ?? null,
    roles: standing.roles,
    resident: standing.resident,
    sid: familyId,
    ...(standing.membership
      ? { mid: standing.membership.id, mv: standing.membership.version, unit: standing.membership.unitId }
      : {}),
  });
  return {
    accessToken,
    refreshToken,
    expiresIn: ACCESS_TOKEN_TTL_SECONDS,
    user: {
      id: user.id,
      name: user.name,
      email: user.email,
      roles: [...standing.roles],
      resident: standing.resident,
      tenant: tenant ? tenantRef(tenant) : null,
    },
  };
}

/** Opens a session (one refresh-token family) and signs the first access token of it. */
async function openSession(ctx: PlatformCtx, user: UserRow, standing: Standing, tenant: TenantRow | null) {
  const familyId = newId();
  const refreshToken = randomToken(32);
  await ctx.platform.insert(sessions).values({
    id: familyId,
    userId: user.id,
    tenantId: tenant?.id ?? null,
    familyId,
    refreshHash: await sha256Hex(refreshToken),
    expiresAt: refreshExpiry(ctx),
  });
  return tokensFor(ctx, user, standing, tenant, familyId, refreshToken);
}

/**
 * Where a verified person lands: the tenant they asked for, else their first community that is not
 * suspended, a membership in a move-out grace period only when there is no other; an operator asking for no tenant gets the platform session. A closed community is never
 * landed in: asked for by name, or the only ones the person has, it is 410 `tenant_closed`. Every sign-in method (password,
 * magic link, OIDC) ends here, so the rules are the same for all of them.
 */
export async function signIn(ctx: PlatformCtx, user: UserRow, tenantSlug?: string | null) {
  if (user.status !== "active") {
    throw new Forbidden("account_disabled", "This account is disabled.");
  }
  if (user.platformRole === "super_admin" && !tenantSlug) {
    return openSession(ctx, user, OPERATOR, null);
  }
  const all = await membershipsOf({ ctx, id: user.id });
  const open = all.filter((m) => m.tenant.status !== "ditutup");
  // Without a named community, a live membership first: one ended by a move-out and kept for its grace
  // period (issue 45) reaches no community route, so it is landed on only when nothing else is open.
  const live = open.filter((m) => m.tenant.status !== "suspended");
  const chosen = tenantSlug
    ? open.find((m) => m.tenant.slug === tenantSlug)
    : (live.find((m) => !m.membership.graceUntil) ?? live[0] ?? open[0]);
  if (!chosen) {
    // Issue 42: a member of a community that has closed hears that it closed (410, as its routes and
    // public pages say), not that they never belonged; a membership elsewhere that is open signed in above.
    const closed = all.some(
      (m) => m.tenant.status === "ditutup" && (!tenantSlug || m.tenant.slug === tenantSlug),
    );
    if (closed) {
      throw new Gone("tenant_closed", "This community has been closed and no longer uses the service.");
    }
    throw new Forbidden("no_membership", "This account has no membership in that community.");
  }
  if (chosen.tenant.status === "suspended") {
    throw new Forbidden("tenant_suspended", "This community's account is suspended.");
  }
  return openSession(ctx, user, standingIn(chosen.membership), chosen.tenant);
}

/**
 * Email (or WhatsApp number) and password. A wrong identifier and a wrong password get the same 401
 * after the same work (a dummy hash is verified for unknown accounts), so the answer reveals no accounts.
 * Failures count per account, not per identifier (limits.ts `startLoginAttempt`): the email and the
 * number of one account share one budget. A hash of an older scheme is replaced now that the password
 * is known (ADR 0012). Past the account-wide ceiling every address waits, and the owner is told (with a
 * one-tap sign-in link, sent through `defer` after the answer).
 */
export async function login({ ctx, input, defer }: { ctx: PlatformCtx; input: LoginInput; defer?: Defer }) {
  // The per-IP count and the account read are independent: one waits on the other for nothing. The
  // read answers nothing to the caller unless the count allowed the attempt.
  const [, user] = await Promise.all([
    rateLimit(ctx.env, [{ policy: "login:ip", subject: addressBlock(ctx.ip) }]),
    ctx.platform
      .select()
      .from(users)
      // A number signs in only to the account that proved it (contacts.ts): others may claim it too.
      .where(
        input.email
          ? eq(users.email, input.email)
          : and(eq(users.whatsapp, input.whatsapp ?? ""), isNotNull(users.whatsappVerifiedAt)),
      )
      .get(),
  ]);
  const attempt = await startLoginAttempt(
    ctx.env,
    user ? `user:${user.id}` : `identifier:${input.email ?? input.whatsapp}`,
    ctx.ip,
    (by) => {
      if (by === "account" && user) {
        alertOwnerOfGuessing(ctx, user, defer);
      }
    },
  );
  const check = await verifyPassword(input.password, user?.passwordHash, ctx.config.PASSWORD_PEPPER);
  if (!user?.passwordHash || !check.valid) {
    throw new Unauthorized("invalid_credentials", "Email or password is wrong.");
  }
  // The password was right: clearing the failure budget and opening the session go together (a
  // disabled account or a missing membership is still not a wrong password).
  const [cleared, session] = await Promise.allSettled([
    attempt.succeeded(),
    (async () => {
      if (check.needsRehash) {
        // Only over the hash just verified: a reset that landed meanwhile wins.
        await ctx.platform
          .update(users)
          .set({
            passwordHash: await hashPassword(input.password, ctx.config.PASSWORD_PEPPER),
            updatedAt: ctx.now().toISOString(),
          })
          .where(and(eq(users.id, user.id), eq(users.passwordHash, user.passwordHash ?? "")));
      }
      return signIn(ctx, user, input.tenant);
    })(),
  ]);
  // Both settle before the answer, so neither is cut off when the request ends.
  if (session.status === "rejected") {
    throw session.reason;
  }
  if (cleared.status === "rejected") {
    throw cleared.reason;
  }
  return session.value;
}

/**
 * Ends one sign-in. The caller forgets the family in this isolate's liveness cache once the statement
 * has run (`forgetSession`), so identity routes and staff writes here refuse its access tokens at once.
 */
function revokeFamily(ctx: PlatformCtx, familyId: string) {
  return ctx.platform
    .update(sessions)
    .set({ revokedAt: ctx.now().toISOString() })
    .where(and(eq(sessions.familyId, familyId), isNull(sessions.revokedAt)));
}

const invalidRefresh = () =>
  new Unauthorized("invalid_refresh_token", "The refresh token is invalid, expired or revoked.");

/**
 * Rotation: the presented token is spent by the one UPDATE that checks it, and a successor joins the
 * same family. A token that was already spent is evidence that someone else holds a copy (the thief or
 * the owner, we cannot tell which), so the whole family is revoked and both must sign in again.
 * Role and tenant are read again here: a membership ended or changed takes effect at the next refresh.
 */
export async function refresh({ ctx, input }: { ctx: PlatformCtx; input: { refreshToken: string } }) {
  const db = ctx.platform;
  const hash = await sha256Hex(input.refreshToken);
  const now = ctx.now().toISOString();
  const spent = await db
    .update(sessions)
    .set({ usedAt: now })
    .where(
      and(
        eq(sessions.refreshHash, hash),
        isNull(sessions.usedAt),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
      ),
    )
    .returning()
    .get();
  if (!spent) {
    const row = await db.select().from(sessions).where(eq(sessions.refreshHash, hash)).get();
    if (row?.usedAt && !row.revokedAt) {
      await db.batch([
        revokeFamily(ctx, row.familyId),
        platformAudit(
          { ...ctx, actor: { kind: "system", reason: "refresh_token_reuse" } },
          {
            tenantId: row.tenantId,
            action: "session.reuse_detected",
            targetType: "user",
            targetId: row.userId,
            detail: { familyId: row.familyId },
          },
        ),
      ]);
      forgetSession(row.familyId);
      log("warn", "refresh_token_reuse", { requestId: ctx.requestId, familyId: row.familyId });
      throw new Unauthorized(
        "refresh_token_reused",
        "This refresh token was already used; the session has been ended. Sign in again.",
      );
    }
    throw invalidRefresh();
  }
  const user = await rowById(db, users, spent.userId);
  const { standing, tenant } = await currentStanding(ctx, user, spent.tenantId);
  if (!user || !standing) {
    await revokeFamily(ctx, spent.familyId);
    forgetSession(spent.familyId);
    throw new Unauthorized("session_ended", "Your access has changed; sign in again.");
  }
  if (tenant?.status === "suspended") {
    throw new Forbidden("tenant_suspended", "This community's account is suspended.");
  }
  const next = randomToken(32);
  await db.insert(sessions).values({
    id: newId(),
    userId: user.id,
    tenantId: spent.tenantId,
    familyId: spent.familyId,
    refreshHash: await sha256Hex(next),
    expiresAt: refreshExpiry(ctx),
  });
  return tokensFor(ctx, user, standing, tenant, spent.familyId, next);
}

async function currentStanding(
  ctx: PlatformCtx,
  user: UserRow | undefined,
  tenantId: string | null,
): Promise<{ standing: Standing | null; tenant: TenantRow | null }> {
  if (user?.status !== "active") {
    return { standing: null, tenant: null };
  }
  if (tenantId === null) {
    return { standing: user.platformRole === "super_admin" ? OPERATOR : null, tenant: null };
  }
  const found = (await membershipsOf({ ctx, id: user.id })).find((m) => m.tenant.id === tenantId);
  return found
    ? { standing: standingIn(found.membership), tenant: found.tenant }
    : { standing: null, tenant: null };
}

/**
 * Ends the session of this refresh token and, from the mobile app, unregisters its push token. The
 * refresh token is the credential (the access token may already have expired); an unknown one still
 * gets 204, and nothing is unregistered for it, so this route cannot be used to silence someone's phone.
 */
export async function logout({
  ctx,
  input,
}: {
  ctx: PlatformCtx;
  input: { refreshToken: string; pushToken?: string };
}) {
  const row = await ctx.platform
    .select({ familyId: sessions.familyId })
    .from(sessions)
    .where(eq(sessions.refreshHash, await sha256Hex(input.refreshToken)))
    .get();
  if (!row) {
    return;
  }
  await revokeFamily(ctx, row.familyId);
  forgetSession(row.familyId);
  if (input.pushToken) {
    try {
      await notifyFor(ctx.env).unregisterDevice(input.pushToken);
    } catch (error) {
      // Signing out must work even when the notification service is down; the token then stays until
      // FCM reports it unregistered or the next login moves it.
      log("warn", "push_unregister_failed", {
        requestId: ctx.requestId,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}

/**
 * "Sign out everywhere else": every other session of the caller's account ends, in every community and
 * on every device (a lost phone, a shared computer); their access tokens stop at once (liveness) and
 * their refresh tokens mint nothing more. The caller's own session is kept, to end by the ordinary
 * sign-out (which also clears the web app's cookie). Answers how many sessions were ended.
 */
export async function logoutOthers({ ctx }: { ctx: PlatformCtx }): Promise<number> {
  const actor = requireUser(ctx);
  const ended = await ctx.platform
    .update(sessions)
    .set({ revokedAt: ctx.now().toISOString() })
    .where(
      and(
        eq(sessions.userId, actor.userId),
        ne(sessions.familyId, actor.sessionId),
        isNull(sessions.revokedAt),
      ),
    )
    .returning({ familyId: sessions.familyId });
  const families = new Set(ended.map((r) => r.familyId));
  for (const familyId of families) {
    forgetSession(familyId);
  }
  return families.size;
}

/**
 * Moves the caller to another of their communities: the current session is ended and a new one opened
 * in the target tenant, so the old refresh token can no longer mint tokens for the first tenant.
 */
export async function switchTenant({ ctx, input }: { ctx: PlatformCtx; input: { tenant: string } }) {
  const actor = requireUser(ctx);
  const user = await rowById(ctx.platform, users, actor.userId);
  if (!user) {
    throw new Unauthorized("session_ended", "Your account no longer exists.");
  }
  const result = await signIn(ctx, user, input.tenant);
  await ctx.platform
    .update(sessions)
    .set({ revokedAt: ctx.now().toISOString() })
    .where(
      and(
        eq(sessions.familyId, actor.sessionId),
        eq(sessions.userId, actor.userId),
        isNull(sessions.revokedAt),
      ),
    );
  forgetSession(actor.sessionId);
  return result;
}
