import { and, eq, ne } from "drizzle-orm";
import QRCode from "qrcode-svg";
import { platformAudit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { memberships, oneTimeTokens, users } from "../../core/db/identity-schema";
import { clientUrl } from "../../core/env";
import { Conflict, NotFound } from "../../core/errors";
import { newId, sha256Hex } from "../../core/ids";
import { retireTokens, TOKEN_TTL_SECONDS } from "./oneTimeTokens";

/**
 * A sign-in code an officer hands a member in person (issue 45): the guard or the elderly resident who
 * has no email, or an invited member whose link never arrived. Twelve characters of Crockford base32
 * (60 bits, typed as `ABCD-EFGH-JKMN`, forgiving of case, spaces and O/0, I/L/1), valid for
 * `SIGN_IN_CODE_TTL_SECONDS` (24 hours: long enough to hand over on the evening round, short enough that
 * a note left on a table is soon worthless), single use, stored as its SHA-256 only and shown once in
 * the answer that issues it. A new code retires the member's earlier ones. It opens a session in this
 * community only, and is refused for an account that belongs to another community or runs the platform,
 * so a code from one community's admin never reaches another's data.
 */
export const SIGN_IN_CODE_TTL_SECONDS = TOKEN_TTL_SECONDS.sign_in_code;

export const SIGN_IN_CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export const SIGN_IN_CODE_LENGTH = 12;

function newSignInCode(): string {
  const bytes = new Uint8Array(SIGN_IN_CODE_LENGTH);
  crypto.getRandomValues(bytes);
  // 256 is a multiple of 32: every character is uniform.
  const chars = [...bytes].map((b) => SIGN_IN_CODE_ALPHABET[b % 32]).join("");
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
}

/** The code as typed, in its one stored form: `abcd efgh-jkmn`, `ABCDEFGHJKMN` and O-for-0 are one code. */
export function normaliseSignInCode(typed: string): string {
  return typed.toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
}

/** Where the code's QR points: the web app's landing, which redeems it. */
export function signInCodeUrl(env: { APP_URL: string; CLIENT_URL?: string }, code: string): string {
  return `${clientUrl(env)}/auth/code?code=${encodeURIComponent(code)}`;
}

/**
 * Issues a member of this community a sign-in code (admin only, as invitations are). 404 for anyone who
 * is not a member here; 409 `sign_in_code_refused` for an operator's account or one that belongs to
 * another community too (that person signs in with their own credentials). The record lands in the
 * community's audit trail with the expiry, never the code.
 */
export async function issueSignInCode({ ctx, userId }: { ctx: TenantCtx; userId: string }) {
  const member = await ctx.platform
    .select({ user: users })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.userId, userId), eq(memberships.tenantId, ctx.tenant.id)))
    .get();
  if (!member) {
    throw new NotFound("Member");
  }
  const elsewhere = await ctx.platform
    .select({ id: memberships.id })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), ne(memberships.tenantId, ctx.tenant.id)))
    .get();
  if (member.user.platformRole === "super_admin" || elsewhere || member.user.status !== "active") {
    throw new Conflict(
      "sign_in_code_refused",
      "This account belongs to another community or cannot sign in; it signs in with its own credentials.",
    );
  }
  const code = newSignInCode();
  const id = newId();
  const expiresAt = new Date(ctx.now().getTime() + SIGN_IN_CODE_TTL_SECONDS * 1000).toISOString();
  await ctx.platform.batch([
    retireTokens(ctx, userId, ["sign_in_code"]),
    ctx.platform.insert(oneTimeTokens).values({
      id,
      purpose: "sign_in_code",
      tokenHash: await sha256Hex(normaliseSignInCode(code)),
      userId,
      tenantId: ctx.tenant.id,
      invitedBy: ctx.actor.kind === "user" ? ctx.actor.userId : null,
      data: { tenant: ctx.tenant.slug },
      expiresAt,
    }),
    platformAudit(ctx, {
      action: "member.sign_in_code",
      targetType: "user",
      targetId: userId,
      detail: { codeId: id, expiresAt },
    }),
  ]);
  const link = signInCodeUrl(ctx.env, code);
  const qrSvg = new QRCode({
    content: link,
    padding: 2,
    width: 256,
    height: 256,
    ecl: "M",
    join: true,
  }).svg();
  return { userId, code, link, qrSvg, expiresAt };
}
