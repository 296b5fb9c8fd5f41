import { and, asc, desc, eq, isNotNull, lt, or, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { auditInsert } from "../../core/audit";
import type { PlatformCtx, TenantCtx } from "../../core/context";
import { jakartaDayFilters } from "../../core/db/paging";
import { users } from "../../core/db/platform-schema";
import type { Bindings } from "../../core/env";
import { Invalid, NotFound } from "../../core/errors";
import { newId, randomToken, sha256Hex } from "../../core/ids";
import { attachmentLost, attachStatements } from "./files";
import { notifyTicketCreated } from "./notifications";
import { supportFiles, supportTicketMessages, supportTickets } from "./platform-tables";
import type { CreateTicketInput, PlatformTicketListQuery, TicketListQuery } from "./schemas";
import {
  db,
  type FileRow,
  fileUrl,
  isGuardFailure,
  loadTicket,
  type MessageRow,
  publicFileUrl,
  type TicketRow,
} from "./store";

/** How a viewer reaches files: signed-in consoles through the checked route, the public page by token. */
export type UrlFor = (fileId: string) => string;
export const consoleUrls =
  (env: Bindings): UrlFor =>
  (id) =>
    fileUrl(env, id);
export const publicUrls =
  (env: Bindings, token: string): UrlFor =>
  (id) =>
    publicFileUrl(env, token, id);

export function presentTicket(row: TicketRow, urlFor: UrlFor) {
  return {
    id: row.id,
    number: row.number,
    category: row.category,
    title: row.title,
    detail: row.detail,
    status: row.status,
    source: row.source,
    tenant: row.tenantSlug ? `Tenant ${row.tenantSlug}` : null,
    tenant_slug: row.tenantSlug,
    reply_token: row.replyToken,
    attachment_url: row.attachmentFileId ? urlFor(row.attachmentFileId) : null,
    submitter_name: row.submitterName,
    submitter_email: row.submitterEmail,
    submitter_phone: row.submitterPhone,
    notification_pending: row.notificationPending,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export function presentMessage(row: MessageRow, files: FileRow[], urlFor: UrlFor) {
  const urls = files.map((f) => urlFor(f.id));
  return {
    id: row.id,
    author: row.author,
    via: row.via,
    author_name: row.authorName,
    message: row.message,
    lampiran_url: urls[0] ?? null,
    lampiran_urls: urls,
    status_change: row.statusChange,
    created_at: row.createdAt,
  };
}

/** The ticket with its messages in order, each with the images attached to it. */
export async function threadOf(env: Bindings, ticket: TicketRow, urlFor: UrlFor) {
  const [messages, files] = await db(env).batch([
    db(env)
      .select()
      .from(supportTicketMessages)
      .where(eq(supportTicketMessages.ticketId, ticket.id))
      .orderBy(asc(supportTicketMessages.id)),
    db(env)
      .select()
      .from(supportFiles)
      .where(and(eq(supportFiles.ticketId, ticket.id), isNotNull(supportFiles.attachedAt)))
      .orderBy(asc(supportFiles.id)),
  ]);
  return {
    ...presentTicket(ticket, urlFor),
    messages: messages.map((m) =>
      presentMessage(
        m,
        files.filter((f) => f.messageId === m.id),
        urlFor,
      ),
    ),
  };
}

/** Fetch-or-404 scoped to the caller's tenant: another tenant's ticket does not exist for them. */
export async function loadTenantTicket(ctx: TenantCtx, id: string): Promise<TicketRow> {
  const row = await loadTicket(ctx.env, id);
  if (!row || row.tenantId !== ctx.tenant.id) {
    throw new NotFound("Ticket");
  }
  return row;
}

export async function loadAnyTicket(env: Bindings, id: string): Promise<TicketRow> {
  const row = await loadTicket(env, id);
  if (!row) {
    throw new NotFound("Ticket");
  }
  return row;
}

/**
 * The next ticket number, computed inside the INSERT itself: D1 serialises writes, so two tickets
 * created at once still get different numbers (and the UNIQUE index would refuse a duplicate).
 */
export const nextNumber = sql`(SELECT COALESCE(MAX(${supportTickets.number}), 1000) + 1 FROM ${supportTickets})`;

export async function newReplyToken(): Promise<{ token: string; hash: string }> {
  // 256 random bits, base64url: 43 characters, inside the 22–64 the Email Worker reads from subjects.
  const token = randomToken(32);
  return { token, hash: await sha256Hex(token) };
}

export async function createTicket({ ctx, input }: { ctx: TenantCtx; input: CreateTicketInput }) {
  if (ctx.actor.kind !== "user") {
    throw new Error("a ticket is created by a signed-in admin");
  }
  const database = db(ctx.env);
  const submitter = await database.select().from(users).where(eq(users.id, ctx.actor.userId)).get();
  const id = newId();
  const now = new Date().toISOString();
  const { token, hash } = await newReplyToken();
  const attach = input.attachment_url
    ? await attachStatements(ctx.env, {
        url: input.attachment_url,
        field: "attachment_url",
        owner: { scope: "tenant", tenantId: ctx.tenant.id },
        ticketId: id,
        messageId: null,
      })
    : null;
  const statements: [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]] = [
    database.insert(supportTickets).values({
      id,
      number: nextNumber,
      tenantId: ctx.tenant.id,
      tenantSlug: ctx.tenant.slug,
      source: "tenant",
      category: input.category,
      title: input.title,
      detail: input.detail,
      attachmentFileId: attach?.fileId ?? null,
      status: "baru",
      replyToken: token,
      replyTokenHash: hash,
      submitterUserId: ctx.actor.userId,
      submitterName: submitter?.name ?? "Pengurus",
      submitterEmail: submitter?.email ?? null,
      writeId: newId(),
      createdAt: now,
      updatedAt: now,
    }),
    ...(attach?.statements ?? []),
    auditInsert(database, ctx, {
      tenantId: ctx.tenant.id,
      action: "support_ticket.create",
      targetType: "support_ticket",
      targetId: id,
      detail: { category: input.category },
    }),
  ];
  try {
    await database.batch(statements);
  } catch (error) {
    if (attach && isGuardFailure(error) && (await attachmentLost(ctx.env, attach.fileId, attach.attachId))) {
      throw new Invalid("invalid_attachment", "This image is already attached elsewhere.", [
        { field: "attachment_url", message: "already attached" },
      ]);
    }
    throw error;
  }
  const created = await loadAnyTicket(ctx.env, id);
  await notifyTicketCreated(ctx.env, created, ctx.requestId);
  return threadOf(ctx.env, (await loadTicket(ctx.env, id)) ?? created, consoleUrls(ctx.env));
}

/** Keyset cursor over the list order (created_at, id), newest first: `{created_at}~{id}`. */
const encodeCursor = (row: TicketRow | undefined) => (row ? `${row.createdAt}~${row.id}` : null);

function decodeCursor(cursor: string): { createdAt: string; id: string } {
  const [createdAt, id, ...rest] = cursor.split("~");
  if (!createdAt || !id || rest.length > 0) {
    throw new Invalid("invalid_cursor", "The cursor is not one this list returned.", [
      { field: "cursor", message: "unknown cursor" },
    ]);
  }
  return { createdAt, id };
}

type ListScope = { tenantId: string } | { tenantSlug?: string };

/**
 * One list for both consoles. `from`/`to` are inclusive Asia/Jakarta days; the summary counts follow
 * the same filters (all of the scope's tickets without filters). Page and summary are one D1 batch.
 */
async function listTickets(env: Bindings, scope: ListScope, input: TicketListQuery) {
  const filters: SQL[] = [];
  if ("tenantId" in scope) {
    filters.push(eq(supportTickets.tenantId, scope.tenantId));
  } else if (scope.tenantSlug) {
    filters.push(eq(supportTickets.tenantSlug, scope.tenantSlug));
  }
  if (input.status) {
    filters.push(eq(supportTickets.status, input.status));
  }
  filters.push(...jakartaDayFilters(supportTickets.createdAt, input.from, input.to));
  const where = filters.length ? and(...filters) : undefined;
  const after = input.cursor ? decodeCursor(input.cursor) : null;
  const pageWhere = after
    ? and(
        where,
        or(
          lt(supportTickets.createdAt, after.createdAt),
          and(eq(supportTickets.createdAt, after.createdAt), lt(supportTickets.id, after.id)),
        ),
      )
    : where;
  const database = db(env);
  // Aliased: D1 answers a batch with named columns, and three identical expressions would collide.
  const count = (status: string) =>
    sql<number>`COALESCE(SUM(${supportTickets.status} = ${status}), 0)`.as(`n_${status}`);
  const [rows, summary] = await database.batch([
    database
      .select()
      .from(supportTickets)
      .where(pageWhere)
      .orderBy(desc(supportTickets.createdAt), desc(supportTickets.id))
      .limit(input.limit + 1),
    database
      .select({
        total: sql<number>`COUNT(*)`.as("n_total"),
        baru: count("baru"),
        diproses: count("diproses"),
        selesai: count("selesai"),
      })
      .from(supportTickets)
      .where(where),
  ]);
  const page = rows.slice(0, input.limit);
  const urls = consoleUrls(env);
  return {
    items: page.map((row) => presentTicket(row, urls)),
    nextCursor: rows.length > input.limit ? encodeCursor(page.at(-1)) : null,
    summary: summary[0] ?? { total: 0, baru: 0, diproses: 0, selesai: 0 },
  };
}

export function listTenantTickets({ ctx, input }: { ctx: TenantCtx; input: TicketListQuery }) {
  return listTickets(ctx.env, { tenantId: ctx.tenant.id }, input);
}

export function listPlatformTickets({ ctx, input }: { ctx: PlatformCtx; input: PlatformTicketListQuery }) {
  return listTickets(ctx.env, { tenantSlug: input.tenant }, input);
}

export async function getTenantTicket({ ctx, id }: { ctx: TenantCtx; id: string }) {
  return threadOf(ctx.env, await loadTenantTicket(ctx, id), consoleUrls(ctx.env));
}

export async function getPlatformTicket({ ctx, id }: { ctx: PlatformCtx; id: string }) {
  return threadOf(ctx.env, await loadAnyTicket(ctx.env, id), consoleUrls(ctx.env));
}
