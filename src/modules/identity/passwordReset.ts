import { and, eq, isNotNull, isNull, ne, notExists, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { platformAudit } from "../../core/audit";
import { forgetSession } from "../../core/auth/liveness";
import { hashPassword, verifyPassword } from "../../core/auth/password";
import type { PlatformCtx } from "../../core/context";
import { sessions, users } from "../../core/db/identity-schema";
import { clientUrl } from "../../core/env";
import { Invalid, NotFound } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { notifyFor } from "../../platform/notify";
import type { Defer } from "./background";
import { identityRateLimit as rateLimit } from "./limits";
import {
  consumeOneTimeToken,
  invitationRetired,
  newOneTimeToken,
  retireTokens,
  TOKEN_TTL_SECONDS,
} from "./oneTimeTokens";

export const MIN_PASSWORD_LENGTH = 8;

/**
 * The spec's reset page: the web app's `/reset-password?token=…` (ADR 0041), which posts the token to
 * `POST /api/auth/reset-password`. Set-password invitations use it too.
 */
export function resetPasswordUrl(env: { APP_URL: string; CLIENT_URL?: string }, token: string): string {
  return `${clientUrl(env)}/reset-password?token=${encodeURIComponent(token)}`;
}

/** Always accepted; the account lookup and the email happen after the answer (see background.ts). */
export async function forgotPassword({
  ctx,
  input: { email },
  defer,
}: {
  ctx: PlatformCtx;
  input: { email: string };
  defer: Defer;
}) {
  await rateLimit(ctx.env, [
    { policy: "forgot-password:subject", subject: email },
    { policy: "forgot-password:ip", subject: ctx.ip },
  ]);
  defer("forgot_password", async () => {
    const db = ctx.platform;
    const user = await db.select().from(users).where(eq(users.email, email)).get();
    if (!user?.email || user.status !== "active") {
      return;
    }
    const issued = await newOneTimeToken(ctx, { purpose: "password_reset", userId: user.id });
    await db.batch([retireTokens(ctx, user.id, ["password_reset"]), issued.insert]);
    await notifyFor(ctx.env).sendEmail({
      template: "PASSWORD_RESET",
      to: user.email,
      data: {
        name: user.name,
        resetUrl: resetPasswordUrl(ctx.env, issued.token),
        expiresInMinutes: String(TOKEN_TTL_SECONDS.password_reset / 60),
      },
      idempotencyKey: `password-reset:${issued.id}`,
    });
  });
}

const FAILURES = {
  token_invalid: "This link is not valid.",
  token_expired: "This link has expired; ask for a new one.",
  token_used: "This link was already used; ask for a new one.",
} as const;

/**
 * Sets a new password from a reset link or an invitation. The token is spent first, atomically; then
 * the password changes and every session of the user ends, because whoever asked for a reset may be
 * locking out someone who had the old password.
 */
export async function resetPassword({
  ctx,
  input,
}: {
  ctx: PlatformCtx;
  input: { token: string; password: string };
}) {
  if ([...input.password].length < MIN_PASSWORD_LENGTH) {
    throw new Invalid(
      "password_too_short",
      `The password needs at least ${MIN_PASSWORD_LENGTH} characters.`,
      [{ field: "password", message: `at least ${MIN_PASSWORD_LENGTH} characters` }],
    );
  }
  await rateLimit(ctx.env, [{ policy: "token-exchange:ip", subject: ctx.ip }]);
  // Hashing is the slow part; doing it before spending the token means a crash cannot burn the link.
  const passwordHash = await hashPassword(input.password, ctx.config.PASSWORD_PEPPER);
  const db = ctx.platform;
  const result = await consumeOneTimeToken(ctx, ["password_reset", "invitation"], input.token);
  if (!result.ok) {
    if (result.retired) {
      throw invitationRetired();
    }
    throw new Invalid(result.reason, FAILURES[result.reason], [{ field: "token", message: result.reason }]);
  }
  const now = ctx.now().toISOString();
  const [, ended] = await db.batch([
    db.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, result.userId)),
    db
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(eq(sessions.userId, result.userId), isNull(sessions.revokedAt)))
      .returning({ familyId: sessions.familyId }),
    retireTokens(ctx, result.userId, ["password_reset", "invitation"]),
    ...proveDeliveredContact(ctx, result.userId, now, result.channel),
  ]);
  for (const { familyId } of ended) {
    forgetSession(familyId);
  }
  return { purpose: result.purpose };
}

/**
 * A set-password or reset link goes to the account's email, or to its number when it has none
 * (invitations.ts `invitationChannel`), or by the channel the invitation names (issue 45: an admin
 * re-sent it through a number added to an account that has an email): using it proves that contact,
 * never the other. The number only when no other account has proven it already (that one keeps it
 * until released).
 */
function proveDeliveredContact(
  ctx: PlatformCtx,
  userId: string,
  now: string,
  channel: "email" | "whatsapp" | null,
) {
  const other = alias(users, "other_holder");
  // Without a stored channel (a reset link, an older invitation): the email when there is one.
  const never = sql`0`;
  const byEmail = channel === null || channel === "email" ? undefined : never;
  const byWhatsapp = channel === null ? isNull(users.email) : channel === "whatsapp" ? undefined : never;
  return [
    ctx.platform
      .update(users)
      .set({ emailVerifiedAt: now })
      .where(and(eq(users.id, userId), isNotNull(users.email), byEmail, isNull(users.emailVerifiedAt))),
    ctx.platform
      .update(users)
      .set({ whatsappVerifiedAt: now })
      .where(
        and(
          eq(users.id, userId),
          byWhatsapp,
          isNotNull(users.whatsapp),
          isNull(users.whatsappVerifiedAt),
          notExists(
            ctx.platform
              .select({ id: other.id })
              .from(other)
              .where(
                and(
                  eq(other.whatsapp, users.whatsapp),
                  isNotNull(other.whatsappVerifiedAt),
                  ne(other.id, users.id),
                ),
              ),
          ),
        ),
      ),
  ] as const;
}

function checkLength(password: string, field: string) {
  if ([...password].length < MIN_PASSWORD_LENGTH) {
    throw new Invalid(
      "password_too_short",
      `The password needs at least ${MIN_PASSWORD_LENGTH} characters.`,
      [{ field, message: `at least ${MIN_PASSWORD_LENGTH} characters` }],
    );
  }
}

/**
 * The caller sets their own password (issue 45). An account that has none (it only ever signed in by
 * a code) sets one with no more than its session; one that has a password changes it with the current
 * one (400 `current_password_invalid` otherwise, limited per account), and every other session of the
 * account ends, as after a reset. Audited without either password.
 */
export async function setOwnPassword({
  ctx,
  input,
}: {
  ctx: PlatformCtx;
  input: { newPassword: string; currentPassword?: string | undefined };
}) {
  const actor = requireUser(ctx);
  checkLength(input.newPassword, "newPassword");
  const user = await ctx.platform
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, actor.userId))
    .get();
  if (!user) {
    throw new NotFound("User");
  }
  const first = user.passwordHash === null;
  if (!first) {
    await rateLimit(ctx.env, [{ policy: "password-change:subject", subject: actor.userId }]);
    const check = await verifyPassword(
      input.currentPassword ?? "",
      user.passwordHash,
      ctx.config.PASSWORD_PEPPER,
    );
    if (!input.currentPassword || !check.valid) {
      throw new Invalid("current_password_invalid", "The current password is wrong.", [
        { field: "currentPassword", message: "the account's current password" },
      ]);
    }
  }
  const passwordHash = await hashPassword(input.newPassword, ctx.config.PASSWORD_PEPPER);
  const now = ctx.now().toISOString();
  const db = ctx.platform;
  const [, ended] = await db.batch([
    db.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, actor.userId)),
    db
      .update(sessions)
      .set({ revokedAt: now })
      .where(
        and(
          eq(sessions.userId, actor.userId),
          first ? sql`0` : ne(sessions.familyId, actor.sessionId),
          isNull(sessions.revokedAt),
        ),
      )
      .returning({ familyId: sessions.familyId }),
    platformAudit(ctx, {
      action: first ? "user.password_set" : "user.password_change",
      targetType: "user",
      targetId: actor.userId,
    }),
  ]);
  for (const { familyId } of ended) {
    forgetSession(familyId);
  }
}
