import { eq } from "drizzle-orm";
import type { PlatformCtx } from "../../core/context";
import { NotFound } from "../../core/errors";
import { sha256Hex, timingSafeEqualText } from "../../core/ids";
import { type supportFiles, type supportTicketMessages, supportTickets } from "./platform-tables";

export type TicketRow = typeof supportTickets.$inferSelect;
export type MessageRow = typeof supportTicketMessages.$inferSelect;
export type FileRow = typeof supportFiles.$inferSelect;

/** What the URL helpers need of a context: the checked APP_URL and the web client's CLIENT_URL. */
type UrlCtx = Pick<PlatformCtx, "config" | "env">;

const appUrl = (ctx: UrlCtx) => ctx.config.APP_URL.replace(/\/$/, "");

/** The access-checked file route for signed-in viewers (the ticket's tenant admins, operators). */
export const fileUrl = (ctx: UrlCtx, id: string) => `${appUrl(ctx)}/api/support-files/${id}`;

/** The same file for the login-free page: the reply token in the path is the credential. */
export const publicFileUrl = (ctx: UrlCtx, token: string, id: string) =>
  `${appUrl(ctx)}/api/public/support-tickets/${encodeURIComponent(token)}/files/${id}`;

export const replyPageUrl = (ctx: UrlCtx, token: string) =>
  `${appUrl(ctx)}/support/reply/${encodeURIComponent(token)}`;

/** Where the operators' console shows a ticket (the web client at CLIENT_URL). */
export const operatorTicketUrl = (ctx: UrlCtx, id: string) =>
  `${ctx.env.CLIENT_URL.replace(/\/$/, "")}/platform/support-tickets/${id}`;

export async function loadTicket(ctx: PlatformCtx, id: string): Promise<TicketRow | undefined> {
  return ctx.platform.select().from(supportTickets).where(eq(supportTickets.id, id)).get();
}

// randomToken(32) is 43 base64url characters; the Email Worker reads 22–64 from subjects.
const TOKEN_RE = /^[A-Za-z0-9_-]{22,64}$/;

/**
 * The ticket a reply token opens, or 404. The lookup is by the token's SHA-256 (exact match on a
 * unique index), and the stored token is compared in constant time as well.
 */
export async function findTicketByToken(ctx: PlatformCtx, token: string): Promise<TicketRow> {
  if (!TOKEN_RE.test(token)) {
    throw new NotFound("Ticket", "ticket_not_found");
  }
  const row = await ctx.platform
    .select()
    .from(supportTickets)
    .where(eq(supportTickets.replyTokenHash, await sha256Hex(token)))
    .get();
  if (!row || !timingSafeEqualText(row.replyToken, token)) {
    throw new NotFound("Ticket", "ticket_not_found");
  }
  return row;
}
