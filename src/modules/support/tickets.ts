import { and, asc, desc, eq, isNotNull, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { platformAudit } from "../../core/audit";
import type { PlatformCtx, TenantCtx } from "../../core/context";
import { isBatchAborted } from "../../core/db/errors";
import { afterKeyset, jakartaDayFilters, type Keyset, keysetPageBy } from "../../core/db/paging";
import { Invalid, NotFound } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { userContact } from "../identity/service";
import { attachmentLost, attachStatements } from "./files";
import { notifyTicketCreated, withDeliveryState } from "./notifications";
import { supportFiles, supportTicketMessages, supportTickets } from "./platform-tables";
import type { CreateTicketInput, PlatformTicketListQuery, TicketListQuery } from "./schemas";
import {
  type FileRow,
  fileUrl,
  loadTicket,
  type MessageRow,
  publicFileUrl,
  replyTokenOf,
  type TicketRow,
} from "./store";

/** How a viewer reaches files: signed-in consoles through the checked route, the public page by token. */
export type UrlFor = (fileId: string) => string;
export const consoleUrls =
  (ctx: PlatformCtx): UrlFor =>
  (id) =>
    fileUrl(ctx, id);
export const publicUrls =
  (ctx: PlatformCtx, token: string): UrlFor =>
  (id) =>
    publicFileUrl(ctx, token, id);

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
    attachment_url: row.attachmentFileId ? urlFor(row.attachmentFileId) : null,
    submitter_name: row.submitterName,
    submitter_email: row.submitterEmail,
    submitter_phone: row.submitterPhone,
    notification_pending: row.notificationPending,
    notification_failed: row.notificationFailed,
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
export async function threadOf(ctx: PlatformCtx, current: TicketRow, urlFor: UrlFor) {
  const ticket = await withDeliveryState(ctx, current);
  const [messages, files] = await ctx.platform.batch([
    ctx.platform
      .select()
      .from(supportTicketMessages)
      .where(eq(supportTicketMessages.ticketId, ticket.id))
      .orderBy(asc(supportTicketMessages.id)),
    ctx.platform
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
  const row = await loadTicket(ctx, id);
  if (!row || row.tenantId !== ctx.tenant.id) {
    throw new NotFound("Ticket");
  }
  return row;
}

export async function loadAnyTicket(ctx: PlatformCtx, id: string): Promise<TicketRow> {
  const row = await loadTicket(ctx, id);
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

export async function createTicket({ ctx, input }: { ctx: TenantCtx; input: CreateTicketInput }) {
  const user = requireUser(ctx);
  const submitter = await userContact({ ctx, id: user.userId });
  const id = newId();
  const now = ctx.now().toISOString();
  const { token, hash } = await replyTokenOf(ctx, id);
  const attach = input.attachment_url
    ? await attachStatements(ctx, {
        url: input.attachment_url,
        field: "attachment_url",
        owner: { scope: "tenant", tenantId: ctx.tenant.id },
        ticketId: id,
        messageId: null,
      })
    : null;
  const db = ctx.platform;
  const statements: [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]] = [
    db.insert(supportTickets).values({
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
      replyTokenHash: hash,
      submitterUserId: user.userId,
      submitterName: submitter?.name ?? "Pengurus",
      submitterEmail: submitter?.email ?? null,
      writeId: newId(),
      createdAt: now,
      updatedAt: now,
    }),
    ...(attach?.statements ?? []),
    platformAudit(ctx, {
      action: "support_ticket.create",
      targetType: "support_ticket",
      targetId: id,
      detail: { category: input.category },
    }),
  ];
  try {
    await db.batch(statements);
  } catch (error) {
    if (attach && isBatchAborted(error) && (await attachmentLost(ctx, attach.fileId, attach.attachId))) {
      throw new Invalid("invalid_attachment", "This image is already attached elsewhere.", [
        { field: "attachment_url", message: "already attached" },
      ]);
    }
    throw error;
  }
  const created = await loadAnyTicket(ctx, id);
  await notifyTicketCreated(ctx, created);
  const thread = await threadOf(ctx, (await loadTicket(ctx, id)) ?? created, consoleUrls(ctx));
  // The creator's answer is the one read that shows the token (the spec's `reply_token`), as a gate
  // device's key is shown once: no later read, and no operator, ever sees it.
  return { ...thread, reply_token: token };
}

/** The list's order, newest first: by creation time, then id; the cursor is `{created_at}~{id}`. */
const TICKET_ORDER: Keyset<TicketRow> = {
  columns: [supportTickets.createdAt, supportTickets.id],
  order: "desc",
  key: (row) => [row.createdAt, row.id],
};

type ListScope = { tenantId: string } | { tenantSlug?: string };

/**
 * One list for both consoles. `from`/`to` are inclusive Asia/Jakarta days; the summary counts follow
 * the same filters (all of the scope's tickets without filters). Page and summary are one D1 batch.
 */
async function listTickets(ctx: PlatformCtx, scope: ListScope, input: TicketListQuery) {
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
  const after = afterKeyset(TICKET_ORDER, input.cursor);
  const pageWhere = after ? and(where, after) : where;
  const db = ctx.platform;
  // Aliased: D1 answers a batch with named columns, and three identical expressions would collide.
  const count = (status: string) =>
    sql<number>`COALESCE(SUM(${supportTickets.status} = ${status}), 0)`.as(`n_${status}`);
  const [rows, summary] = await db.batch([
    db
      .select()
      .from(supportTickets)
      .where(pageWhere)
      .orderBy(desc(supportTickets.createdAt), desc(supportTickets.id))
      .limit(input.limit + 1),
    db
      .select({
        total: sql<number>`COUNT(*)`.as("n_total"),
        baru: count("baru"),
        diproses: count("diproses"),
        selesai: count("selesai"),
      })
      .from(supportTickets)
      .where(where),
  ]);
  const page = keysetPageBy(rows, input.limit, TICKET_ORDER);
  const urls = consoleUrls(ctx);
  // Only tickets still waiting on an email ask the notification service; settled ones are stored as such.
  const items = await Promise.all(page.items.map((row) => withDeliveryState(ctx, row)));
  return {
    items: items.map((row) => presentTicket(row, urls)),
    nextCursor: page.nextCursor,
    summary: summary[0] ?? { total: 0, baru: 0, diproses: 0, selesai: 0 },
  };
}

export function listTenantTickets({ ctx, input }: { ctx: TenantCtx; input: TicketListQuery }) {
  return listTickets(ctx, { tenantId: ctx.tenant.id }, input);
}

export function listPlatformTickets({ ctx, input }: { ctx: PlatformCtx; input: PlatformTicketListQuery }) {
  return listTickets(ctx, { tenantSlug: input.tenant }, input);
}

export async function getTenantTicket({ ctx, id }: { ctx: TenantCtx; id: string }) {
  return threadOf(ctx, await loadTenantTicket(ctx, id), consoleUrls(ctx));
}

export async function getPlatformTicket({ ctx, id }: { ctx: PlatformCtx; id: string }) {
  return threadOf(ctx, await loadAnyTicket(ctx, id), consoleUrls(ctx));
}
