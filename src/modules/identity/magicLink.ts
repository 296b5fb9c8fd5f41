import { eq } from "drizzle-orm";
import type { PlatformCtx } from "../../core/context";
import { users } from "../../core/db/identity-schema";
import { rowById } from "../../core/db/rows";
import { Unauthorized } from "../../core/errors";
import { notifyFor } from "../../platform/notify";
import type { Defer } from "./background";
import { identityRateLimit as rateLimit } from "./limits";
import { consumeOneTimeToken, magicLinkUrl, newOneTimeToken, TOKEN_TTL_SECONDS } from "./oneTimeTokens";
import type { MagicLinkInput } from "./schemas";
import { membershipsOf } from "./service";
import { signIn } from "./sessions";

/**
 * Always accepted: the lookup, the token and the email happen after the answer (see background.ts),
 * so the response says nothing about whether the email has an account. A link is only sent when it
 * could sign the person in (active account, and a membership in the asked tenant if one was named).
 */
export async function requestMagicLink({
  ctx,
  input,
  defer,
}: {
  ctx: PlatformCtx;
  input: MagicLinkInput;
  defer: Defer;
}) {
  await rateLimit(ctx.env, [
    { policy: "magic-link:subject", subject: input.email },
    { policy: "magic-link:ip", subject: ctx.ip },
  ]);
  defer("magic_link", async () => {
    const db = ctx.platform;
    const user = await db.select().from(users).where(eq(users.email, input.email)).get();
    if (!user?.email || user.status !== "active") {
      return;
    }
    if (
      input.tenant &&
      !(await membershipsOf({ ctx, id: user.id })).some((m) => m.tenant.slug === input.tenant)
    ) {
      return;
    }
    const issued = await newOneTimeToken(ctx, {
      purpose: "magic_link",
      userId: user.id,
      data: { tenant: input.tenant ?? null },
    });
    await db.batch([issued.insert]);
    await notifyFor(ctx.env).sendEmail({
      template: "MAGIC_LINK",
      to: user.email,
      data: {
        name: user.name,
        loginUrl: magicLinkUrl(ctx.env, issued.token),
        expiresInMinutes: String(TOKEN_TTL_SECONDS.magic_link / 60),
      },
      idempotencyKey: `magic-link:${issued.id}`,
    });
  });
}

const FAILURES = {
  token_invalid: "This sign-in link is not valid.",
  token_expired: "This sign-in link has expired; ask for a new one.",
  token_used: "This sign-in link was already used; ask for a new one.",
} as const;

export async function verifyMagicLink({ ctx, input }: { ctx: PlatformCtx; input: { token: string } }) {
  await rateLimit(ctx.env, [{ policy: "token-exchange:ip", subject: ctx.ip }]);
  const db = ctx.platform;
  const result = await consumeOneTimeToken(ctx, ["magic_link"], input.token);
  if (!result.ok) {
    throw new Unauthorized(result.reason, FAILURES[result.reason]);
  }
  const user = await rowById(db, users, result.userId);
  if (!user) {
    throw new Unauthorized("token_invalid", FAILURES.token_invalid);
  }
  return signIn(ctx, user, result.data.tenant);
}
