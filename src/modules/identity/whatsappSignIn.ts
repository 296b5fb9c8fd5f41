import { and, eq, gt, isNotNull, isNull, sql } from "drizzle-orm";
import type { PlatformCtx } from "../../core/context";
import { contactCodes, users } from "../../core/db/identity-schema";
import { Unauthorized } from "../../core/errors";
import { log } from "../../core/http/log";
import { newId, timingSafeEqualText } from "../../core/ids";
import { notifyFor } from "../../platform/notify";
import type { Defer } from "./background";
import { CONTACT_CODE_TTL_SECONDS, codeHash, countAttempt, newCode } from "./contacts";
import { identityRateLimit as rateLimit } from "./limits";
import { signIn } from "./sessions";

/**
 * Signing in, and recovering an account, with a code sent to a proven WhatsApp number (issue 45): for
 * the guard and the elderly resident who have no email. The codes are contact codes (contacts.ts) of
 * purpose `sign_in`: six digits, HMAC-hashed at rest under the pepper and bound to the account and the
 * number, ten minutes, single use, five wrong tries spend one, a new one retires the older. Only a number
 * the account has proven (`whatsapp_verified_at`) receives one: a number merely typed on a profile could
 * be anyone's. There is no separate recovery: a member who lost their password signs in this way.
 */

/** The active account that has proven this number, if any. */
async function holderOf(ctx: PlatformCtx, whatsapp: string) {
  return ctx.platform
    .select()
    .from(users)
    .where(and(eq(users.whatsapp, whatsapp), isNotNull(users.whatsappVerifiedAt)))
    .get();
}

/**
 * Always accepted, answered before the lookup (background.ts), so the answer says nothing about whether
 * the number has an account. Limited per number and per address.
 */
export async function requestWhatsappCode({
  ctx,
  input,
  defer,
}: {
  ctx: PlatformCtx;
  input: { whatsapp: string };
  defer: Defer;
}) {
  await rateLimit(ctx.env, [
    { policy: "whatsapp-code:subject", subject: input.whatsapp },
    { policy: "whatsapp-code:ip", subject: ctx.ip },
  ]);
  defer("whatsapp_sign_in_code", async () => {
    const user = await holderOf(ctx, input.whatsapp);
    if (user?.status !== "active") {
      return;
    }
    const code = newCode();
    const id = newId();
    const now = ctx.now();
    await ctx.platform.batch([
      ctx.platform
        .update(contactCodes)
        .set({ usedAt: now.toISOString() })
        .where(
          and(
            eq(contactCodes.userId, user.id),
            eq(contactCodes.purpose, "sign_in"),
            isNull(contactCodes.usedAt),
          ),
        ),
      ctx.platform.insert(contactCodes).values({
        id,
        userId: user.id,
        channel: "whatsapp",
        purpose: "sign_in",
        contact: input.whatsapp,
        codeHash: await codeHash(ctx.config.PASSWORD_PEPPER, {
          userId: user.id,
          channel: "whatsapp",
          contact: input.whatsapp,
          code,
          purpose: "sign_in",
        }),
        expiresAt: new Date(now.getTime() + CONTACT_CODE_TTL_SECONDS * 1000).toISOString(),
      }),
    ]);
    await notifyFor(ctx.env).sendWhatsApp({
      to: input.whatsapp,
      message:
        `Kode masuk Warga Anda: ${code}. Berlaku ${CONTACT_CODE_TTL_SECONDS / 60} menit. ` +
        "Jangan berikan kode ini kepada siapa pun, termasuk pengurus. " +
        "Jika Anda tidak memintanya, abaikan pesan ini.",
      idempotencyKey: `whatsapp-sign-in:${id}`,
    });
    log("info", "whatsapp_sign_in_code_sent", { requestId: ctx.requestId, codeId: id });
  });
}

function refused(): Unauthorized {
  return new Unauthorized("code_invalid", "The code is wrong, expired or already used; ask for a new one.");
}

/**
 * Checks a code against the newest live sign-in code of the account that proved the number, and signs
 * in by the rules every sign-in follows (sessions.ts `signIn`). An unknown number, a wrong, expired or
 * spent code all answer the same 401 `code_invalid`. A wrong code spends one attempt in the UPDATE that
 * checks the bound, so parallel guesses cannot exceed it.
 */
export async function verifyWhatsappCode({
  ctx,
  input,
}: {
  ctx: PlatformCtx;
  input: { whatsapp: string; code: string; tenant?: string | undefined };
}) {
  await rateLimit(ctx.env, [
    { policy: "whatsapp-code-verify:subject", subject: input.whatsapp },
    { policy: "whatsapp-code-verify:ip", subject: ctx.ip },
  ]);
  const user = await holderOf(ctx, input.whatsapp);
  if (!user) {
    throw refused();
  }
  const nowIso = ctx.now().toISOString();
  const live = await ctx.platform
    .select()
    .from(contactCodes)
    .where(
      and(
        eq(contactCodes.userId, user.id),
        eq(contactCodes.purpose, "sign_in"),
        eq(contactCodes.contact, input.whatsapp),
        isNull(contactCodes.usedAt),
        gt(contactCodes.expiresAt, nowIso),
      ),
    )
    .orderBy(sql`${contactCodes.createdAt} DESC`)
    .get();
  if (!live) {
    throw refused();
  }
  if (!(await countAttempt(ctx, live.id))) {
    throw refused();
  }
  const expected = await codeHash(ctx.config.PASSWORD_PEPPER, {
    userId: user.id,
    channel: "whatsapp",
    contact: live.contact,
    code: input.code,
    purpose: "sign_in",
  });
  if (!timingSafeEqualText(expected, live.codeHash)) {
    throw refused();
  }
  const spent = await ctx.platform
    .update(contactCodes)
    .set({ usedAt: nowIso })
    .where(and(eq(contactCodes.id, live.id), isNull(contactCodes.usedAt)))
    .returning({ id: contactCodes.id })
    .get();
  if (!spent) {
    throw refused();
  }
  return signIn(ctx, user, input.tenant);
}
