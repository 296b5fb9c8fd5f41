import { and, eq, gt, isNotNull, isNull, ne, sql } from "drizzle-orm";
import { platformAudit } from "../../core/audit";
import type { PlatformCtx } from "../../core/context";
import { isUniqueViolation } from "../../core/db/errors";
import { contactCodes, users } from "../../core/db/identity-schema";
import { Conflict, Invalid, NotFound } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { base64url, newId, timingSafeEqualText } from "../../core/ids";
import { notifyFor } from "../../platform/notify";
import { contactCodeRateLimit } from "./limits";

/**
 * Proving a contact (issue 44, P1). What a person types on their profile is a claim: a number only
 * becomes the account's, for invitations, approved applications and sign-in to match, once a code sent
 * to it comes back. Delivery does not wait for proof: messages still go to an unproven number.
 */

export type ContactChannel = (typeof contactCodes.$inferSelect)["channel"];
export type CodePurpose = (typeof contactCodes.$inferSelect)["purpose"];

/** Each purpose hashes under its own label, so a code sent for one can never pass as the other. */
const CODE_DOMAIN: Record<CodePurpose, string> = { verify: "contact-code", sign_in: "sign-in-code" };

/** How long a code works, and how many wrong codes spend it. */
export const CONTACT_CODE_TTL_SECONDS = 10 * 60;
export const CONTACT_CODE_MAX_ATTEMPTS = 5;

/** 409 `whatsapp_taken`: another account has proven this number (it must release it, or an operator decide). */
export function whatsappTaken(): Conflict {
  return new Conflict(
    "whatsapp_taken",
    "This WhatsApp number is verified on another account; it must be released there first.",
  );
}

/** The account that has proven this number, other than `except`, if any. */
export async function verifiedHolderOf(
  ctx: Pick<PlatformCtx, "platform">,
  whatsapp: string,
  except?: string,
) {
  return ctx.platform
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.whatsapp, whatsapp),
        isNotNull(users.whatsappVerifiedAt),
        ...(except ? [ne(users.id, except)] : []),
      ),
    )
    .get();
}

/** Six digits, uniform (rejection sampling: no bias toward low codes). */
export function newCode(): string {
  const buffer = new Uint32Array(1);
  for (;;) {
    crypto.getRandomValues(buffer);
    const value = buffer[0] ?? 0;
    if (value < 4_294_000_000) {
      return String(value % 1_000_000).padStart(6, "0");
    }
  }
}

/**
 * A code at rest: an HMAC under the deployment's pepper, bound to the account, channel and contact, so
 * a copy of the table does not give six-digit codes away to a quick search, and a code proves only the
 * contact it was sent to.
 */
export async function codeHash(
  pepper: string,
  code: { userId: string; channel: ContactChannel; contact: string; code: string; purpose?: CodePurpose },
): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(pepper),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign(
    "HMAC",
    key,
    new TextEncoder().encode(
      `${CODE_DOMAIN[code.purpose ?? "verify"]}\n${code.userId}\n${code.channel}\n${code.contact}\n${code.code}`,
    ),
  );
  return base64url(new Uint8Array(mac));
}

async function account(ctx: PlatformCtx, id: string) {
  const user = await ctx.platform.select().from(users).where(eq(users.id, id)).get();
  if (!user) {
    throw new NotFound("User");
  }
  return user;
}

function contactOf(user: typeof users.$inferSelect, channel: ContactChannel) {
  const contact = channel === "whatsapp" ? user.whatsapp : user.email;
  const verifiedAt = channel === "whatsapp" ? user.whatsappVerifiedAt : user.emailVerifiedAt;
  return { contact, verified: verifiedAt !== null };
}

/**
 * Sends a one-time code to the caller's own number or email. Counted per account, per contact and per
 * community (the session's), so neither one person nor one neighbourhood can make the service message
 * a number without limit. A new code retires the earlier ones of that channel.
 */
export async function requestContactCode({
  ctx,
  input,
}: {
  ctx: PlatformCtx;
  input: { channel: ContactChannel };
}) {
  const actor = requireUser(ctx);
  const user = await account(ctx, actor.userId);
  const { contact, verified } = contactOf(user, input.channel);
  if (!contact) {
    throw new Conflict("no_contact", "Your profile has no contact of this kind to verify.");
  }
  if (verified) {
    throw new Conflict("contact_already_verified", "This contact is already verified.");
  }
  if (input.channel === "whatsapp" && (await verifiedHolderOf(ctx, contact, user.id))) {
    throw whatsappTaken();
  }
  await contactCodeRateLimit(
    ctx.env,
    [
      { policy: "contact-code:account", subject: user.id },
      { policy: "contact-code:contact", subject: `${input.channel}:${contact}` },
      { policy: "contact-code:community", subject: actor.tenantSlug },
    ],
    ctx,
  );
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
          eq(contactCodes.channel, input.channel),
          eq(contactCodes.purpose, "verify"),
          isNull(contactCodes.usedAt),
        ),
      ),
    ctx.platform.insert(contactCodes).values({
      id,
      userId: user.id,
      channel: input.channel,
      contact,
      codeHash: await codeHash(ctx.config.PASSWORD_PEPPER, {
        userId: user.id,
        channel: input.channel,
        contact,
        code,
      }),
      expiresAt: new Date(now.getTime() + CONTACT_CODE_TTL_SECONDS * 1000).toISOString(),
    }),
  ]);
  const minutes = CONTACT_CODE_TTL_SECONDS / 60;
  const text =
    `Kode verifikasi Warga Anda: ${code}. Berlaku ${minutes} menit. ` +
    "Jangan berikan kode ini kepada siapa pun, termasuk pengurus. " +
    "Jika Anda tidak memintanya, abaikan pesan ini.";
  const client = notifyFor(ctx.env);
  if (input.channel === "whatsapp") {
    await client.sendWhatsApp({ to: contact, message: text, idempotencyKey: `contact-code:${id}` });
  } else {
    await client.sendRawEmail({
      to: contact,
      subject: "Kode verifikasi email Anda",
      text: `Halo ${user.name},\n\n${text}`,
      idempotencyKey: `contact-code:${id}`,
    });
  }
  return { channel: input.channel, expiresInSeconds: CONTACT_CODE_TTL_SECONDS };
}

function codeRefused(): Invalid {
  return new Invalid(
    "contact_code_invalid",
    "The code is wrong, expired or already used; ask for a new one.",
  );
}

/**
 * Checks a code against the newest live one of the caller's channel. A wrong code spends one of its
 * attempts (the count moves in the same UPDATE that checks it is below the bound, so parallel guesses
 * cannot exceed it); the right one marks the contact it was sent to as proven, if the profile still
 * holds that contact. 409 `whatsapp_taken` when another account proved the number meanwhile.
 */
export async function verifyContactCode({
  ctx,
  input,
}: {
  ctx: PlatformCtx;
  input: { channel: ContactChannel; code: string };
}) {
  const actor = requireUser(ctx);
  const nowIso = ctx.now().toISOString();
  const live = await ctx.platform
    .select()
    .from(contactCodes)
    .where(
      and(
        eq(contactCodes.userId, actor.userId),
        eq(contactCodes.channel, input.channel),
        eq(contactCodes.purpose, "verify"),
        isNull(contactCodes.usedAt),
        gt(contactCodes.expiresAt, nowIso),
      ),
    )
    .orderBy(sql`${contactCodes.createdAt} DESC`)
    .get();
  if (!live) {
    throw codeRefused();
  }
  if (!(await countAttempt(ctx, live.id))) {
    throw codeRefused();
  }
  const expected = await codeHash(ctx.config.PASSWORD_PEPPER, {
    userId: actor.userId,
    channel: input.channel,
    contact: live.contact,
    code: input.code,
  });
  if (!timingSafeEqualText(expected, live.codeHash)) {
    throw codeRefused();
  }
  const spent = await ctx.platform
    .update(contactCodes)
    .set({ usedAt: nowIso })
    .where(and(eq(contactCodes.id, live.id), isNull(contactCodes.usedAt)))
    .returning({ id: contactCodes.id })
    .get();
  if (!spent) {
    throw codeRefused();
  }
  const column = input.channel === "whatsapp" ? users.whatsapp : users.email;
  if (contactOf(await account(ctx, actor.userId), input.channel).contact !== live.contact) {
    // The profile moved to another contact after the code was sent: this code proves nothing now.
    throw codeRefused();
  }
  const proven = input.channel === "whatsapp" ? { whatsappVerifiedAt: nowIso } : { emailVerifiedAt: nowIso };
  try {
    const [updated] = await ctx.platform.batch([
      ctx.platform
        .update(users)
        .set(proven)
        .where(and(eq(users.id, actor.userId), eq(column, live.contact)))
        .returning({ id: users.id }),
      platformAudit(ctx, {
        action: "contact.verify",
        targetType: "user",
        targetId: actor.userId,
        detail: { channel: input.channel },
      }),
    ]);
    if (updated.length === 0) {
      throw codeRefused();
    }
  } catch (error) {
    if (isUniqueViolation(error, "users.whatsapp")) {
      throw whatsappTaken();
    }
    throw error;
  }
  return { channel: input.channel, contact: live.contact, verifiedAt: nowIso };
}

/**
 * The operator's decision on a disputed number: the account that proved it keeps it for delivery
 * but loses the proof, so the rightful holder can prove it on their own account. Audited in the
 * platform log with the reason. 404 when no account has proven the number.
 */
export async function releaseWhatsapp({
  ctx,
  input,
}: {
  ctx: PlatformCtx;
  input: { whatsapp: string; reason: string };
}) {
  const holder = await verifiedHolderOf(ctx, input.whatsapp);
  if (!holder) {
    throw new NotFound("Verified number");
  }
  await ctx.platform.batch([
    ctx.platform
      .update(users)
      .set({ whatsappVerifiedAt: null, updatedAt: ctx.now().toISOString() })
      .where(eq(users.id, holder.id)),
    platformAudit(ctx, {
      action: "contact.release",
      targetType: "user",
      targetId: holder.id,
      detail: { channel: "whatsapp", reason: input.reason },
      tenantId: null,
    }),
  ]);
  return { userId: holder.id, released: true };
}

/**
 * Counts one try against a live code, or says it is spent: used meanwhile, or out of its
 * CONTACT_CODE_MAX_ATTEMPTS tries. Verifying a contact and signing in by WhatsApp code both ask.
 */
export async function countAttempt(ctx: { platform: PlatformCtx["platform"] }, id: string): Promise<boolean> {
  const counted = await ctx.platform
    .update(contactCodes)
    .set({ attempts: sql`${contactCodes.attempts} + 1` })
    .where(
      and(
        eq(contactCodes.id, id),
        isNull(contactCodes.usedAt),
        sql`${contactCodes.attempts} < ${CONTACT_CODE_MAX_ATTEMPTS}`,
      ),
    )
    .returning({ id: contactCodes.id })
    .get();
  return counted !== undefined;
}
