import { and, eq } from "drizzle-orm";
import { derivedHmacKey } from "../../core/auth/keys";
import type { PlatformCtx } from "../../core/context";
import { rowById } from "../../core/db/rows";
import { type Config, clientUrl } from "../../core/env";
import { NotFound } from "../../core/errors";
import { base64url, sha256Hex, timingSafeEqualText } from "../../core/ids";
import { type supportFiles, type supportTicketMessages, supportTickets } from "./platform-tables";

export type TicketRow = typeof supportTickets.$inferSelect;
export type MessageRow = typeof supportTicketMessages.$inferSelect;
export type FileRow = typeof supportFiles.$inferSelect;

/** What the URL helpers need of a context: the checked APP_URL and the web client's CLIENT_URL. */
type UrlCtx = Pick<PlatformCtx, "config" | "env">;

const appUrl = (ctx: UrlCtx) => ctx.config.APP_URL.replace(/\/$/, "");

/** The access-checked file route for signed-in viewers (the ticket's tenant staff, operators). */
export const fileUrl = (ctx: UrlCtx, id: string) => `${appUrl(ctx)}/api/support-files/${id}`;

/** The same file for the login-free page: the reply token in the path is the credential. */
export const publicFileUrl = (ctx: UrlCtx, token: string, id: string) =>
  `${appUrl(ctx)}/api/public/support-tickets/${encodeURIComponent(token)}/files/${id}`;

export const replyPageUrl = (ctx: UrlCtx, token: string) =>
  `${appUrl(ctx)}/support/reply/${encodeURIComponent(token)}`;

/** Where the operators' console shows a ticket (the web client at CLIENT_URL). */
export const operatorTicketUrl = (ctx: UrlCtx, id: string) =>
  `${clientUrl(ctx.env)}/platform/support-tickets/${id}`;

export async function loadTicket(ctx: PlatformCtx, id: string): Promise<TicketRow | undefined> {
  return rowById(ctx.platform, supportTickets, id);
}

// 32 bytes in base64url is 43 characters; the Email Worker reads 22–64 from subjects.
const TOKEN_RE = /^[A-Za-z0-9_-]{22,64}$/;

/**
 * The key reply tokens are signed with: derived from PASSWORD_PEPPER (the secret kept outside the
 * database) for this purpose only, so a reply token says nothing about the pepper.
 */
const tokenKey = (config: Pick<Config, "PASSWORD_PEPPER">) =>
  derivedHmacKey(config.PASSWORD_PEPPER, "warga support reply token v1");

/**
 * A ticket's reply token is an HMAC of its id under a server key: the database keeps only its SHA-256
 * (a leaked table opens no ticket), yet every later email (`[TKT:{replyToken}]`, the page button) can
 * still carry the same token without storing it.
 */
export async function replyTokenOf(ctx: Pick<PlatformCtx, "config">, ticketId: string) {
  const mac = await crypto.subtle.sign(
    "HMAC",
    await tokenKey(ctx.config),
    new TextEncoder().encode(ticketId),
  );
  const token = base64url(new Uint8Array(mac));
  return { token, hash: await sha256Hex(token) };
}

/**
 * The token an email to the submitter carries. A ticket whose stored hash is not the derived token's
 * (created before tokens were derived, or after the key changed) gets the derived one now: the email
 * being sent carries the new link, and the old one stops working. The operators' notices use
 * `replyTokenOf` alone, so a submitter's own reply never changes the link they are using.
 */
export async function currentReplyToken(ctx: PlatformCtx, ticket: TicketRow): Promise<string> {
  const { token, hash } = await replyTokenOf(ctx, ticket.id);
  if (!timingSafeEqualText(hash, ticket.replyTokenHash)) {
    await ctx.platform
      .update(supportTickets)
      .set({ replyTokenHash: hash })
      .where(and(eq(supportTickets.id, ticket.id), eq(supportTickets.replyTokenHash, ticket.replyTokenHash)));
    ticket.replyTokenHash = hash;
  }
  return token;
}

/**
 * The ticket a reply token opens, or 404. Only the token's SHA-256 is stored: the lookup is an exact
 * match on its unique index, and the hashes are compared again in constant time.
 */
export async function findTicketByToken(ctx: PlatformCtx, token: string): Promise<TicketRow> {
  if (!TOKEN_RE.test(token)) {
    throw new NotFound("Ticket", "ticket_not_found");
  }
  const hash = await sha256Hex(token);
  const row = await ctx.platform
    .select()
    .from(supportTickets)
    .where(eq(supportTickets.replyTokenHash, hash))
    .get();
  if (!row || !timingSafeEqualText(row.replyTokenHash, hash)) {
    throw new NotFound("Ticket", "ticket_not_found");
  }
  return row;
}
