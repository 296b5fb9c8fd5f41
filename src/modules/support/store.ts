import { eq, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { platformDb } from "../../core/db/platform";
import { type Bindings, loadConfig, type PlatformDb } from "../../core/env";
import { NotFound } from "../../core/errors";
import { sha256Hex, timingSafeEqualText } from "../../core/ids";
import { type supportFiles, type supportTicketMessages, supportTickets } from "./platform-tables";

export type TicketRow = typeof supportTickets.$inferSelect;
export type MessageRow = typeof supportTicketMessages.$inferSelect;
export type FileRow = typeof supportFiles.$inferSelect;

export const db = (env: Bindings): PlatformDb => platformDb(env);

const appUrl = (env: Bindings) => loadConfig(env).APP_URL.replace(/\/$/, "");

/** The access-checked file route for signed-in viewers (the ticket's tenant admins, operators). */
export const fileUrl = (env: Bindings, id: string) => `${appUrl(env)}/api/support-files/${id}`;

/** The same file for the login-free page: the reply token in the path is the credential. */
export const publicFileUrl = (env: Bindings, token: string, id: string) =>
  `${appUrl(env)}/api/public/support-tickets/${encodeURIComponent(token)}/files/${id}`;

export const replyPageUrl = (env: Bindings, token: string) =>
  `${appUrl(env)}/support/reply/${encodeURIComponent(token)}`;

/** Where the operators' console shows a ticket (the web client at CLIENT_URL). */
export const operatorTicketUrl = (env: Bindings, id: string) =>
  `${env.CLIENT_URL.replace(/\/$/, "")}/platform/support-tickets/${id}`;

export async function loadTicket(env: Bindings, id: string): Promise<TicketRow | undefined> {
  return db(env).select().from(supportTickets).where(eq(supportTickets.id, id)).get();
}

// randomToken(32) is 43 base64url characters; the Email Worker reads 22–64 from subjects.
const TOKEN_RE = /^[A-Za-z0-9_-]{22,64}$/;

/**
 * The ticket a reply token opens, or 404. The lookup is by the token's SHA-256 (exact match on a
 * unique index), and the stored token is compared in constant time as well.
 */
export async function findTicketByToken(env: Bindings, token: string): Promise<TicketRow> {
  if (!TOKEN_RE.test(token)) {
    throw new NotFound("Ticket", "ticket_not_found");
  }
  const row = await db(env)
    .select()
    .from(supportTickets)
    .where(eq(supportTickets.replyTokenHash, await sha256Hex(token)))
    .get();
  if (!row || !timingSafeEqualText(row.replyToken, token)) {
    throw new NotFound("Ticket", "ticket_not_found");
  }
  return row;
}

/**
 * A batch statement that aborts the whole batch (D1 runs a batch as one transaction) unless `cond`
 * holds for the row: `json()` of a text that is not JSON is how a query raises an error in SQLite.
 */
export function abortUnless(
  database: PlatformDb,
  table: typeof supportTickets | typeof supportFiles,
  id: string,
  cond: SQL,
): BatchItem<"sqlite"> {
  return database
    .select({ guard: sql`json(CASE WHEN ${cond} THEN '1' ELSE 'guard_failed' END)` })
    .from(table)
    .where(eq(table.id, id));
}

export const isGuardFailure = (error: unknown) => String(error).includes("malformed JSON");
export const isUniqueFailure = (error: unknown, index: string) => {
  const text = String(error);
  return text.includes("UNIQUE constraint failed") && text.includes(index);
};
