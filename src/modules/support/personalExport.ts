import { and, asc, eq, inArray } from "drizzle-orm";
import type { PlatformCtx } from "../../core/context";
import { supportFiles, supportTicketMessages, supportTickets } from "./platform-tables";

/**
 * The tickets a user submitted, with their messages and the files the user uploaded to them: the
 * support part of the person's own data export (identity's dataExport.ts).
 */
export async function supportTicketsOf(ctx: PlatformCtx, userId: string) {
  const tickets = await ctx.platform
    .select()
    .from(supportTickets)
    .where(eq(supportTickets.submitterUserId, userId))
    .orderBy(asc(supportTickets.createdAt), asc(supportTickets.id));
  if (!tickets.length) {
    return [];
  }
  const ids = tickets.map((t) => t.id);
  const [messages, files] = await ctx.platform.batch([
    ctx.platform
      .select()
      .from(supportTicketMessages)
      .where(inArray(supportTicketMessages.ticketId, ids))
      .orderBy(asc(supportTicketMessages.id)),
    ctx.platform
      .select()
      .from(supportFiles)
      .where(and(inArray(supportFiles.ticketId, ids), eq(supportFiles.uploadedBy, userId))),
  ]);
  return tickets.map((t) => ({
    id: t.id,
    number: t.number,
    tenantSlug: t.tenantSlug,
    source: t.source,
    category: t.category,
    title: t.title,
    detail: t.detail,
    status: t.status,
    submitterName: t.submitterName,
    submitterEmail: t.submitterEmail,
    submitterPhone: t.submitterPhone,
    attachmentFileId: t.attachmentFileId,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    messages: messages
      .filter((m) => m.ticketId === t.id)
      .map((m) => ({
        id: m.id,
        author: m.author,
        via: m.via,
        authorName: m.authorName,
        message: m.message,
        statusChange: m.statusChange,
        createdAt: m.createdAt,
      })),
    files: files
      .filter((f) => f.ticketId === t.id)
      .map((f) => ({
        id: f.id,
        contentType: f.contentType,
        size: f.size,
        filename: f.filename,
        messageId: f.messageId,
        createdAt: f.createdAt,
      })),
  }));
}
