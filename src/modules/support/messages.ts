import { eq, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { platformAudit } from "../../core/audit";
import type { PlatformCtx, TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted } from "../../core/db/errors";
import { Invalid, InvalidTransition } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { userNames } from "../identity/service";
import { type AttachOwner, attachmentLost, attachStatements } from "./files";
import { notifyResponded, notifySubmitterReplied } from "./notifications";
import { supportFiles, supportTicketMessages, supportTickets } from "./platform-tables";
import type { ReplyInput, RespondInput, TicketStatus } from "./schemas";
import { loadTicket, type TicketRow } from "./store";
import { consoleUrls, loadAnyTicket, loadTenantTicket, threadOf } from "./tickets";

/** Operator transitions: `baru → diproses → selesai` and `baru → selesai`, keyed by target. */
const OPERATOR_FROM: Record<TicketStatus, readonly TicketStatus[]> = {
  baru: [],
  diproses: ["baru"],
  selesai: ["baru", "diproses"],
};

/** The operator's moves from `from`, read off the table above. */
const operatorNext = (from: TicketStatus) =>
  (Object.keys(OPERATOR_FROM) as TicketStatus[]).filter((to) => OPERATOR_FROM[to].includes(from));

const invalidTransition = (from: TicketStatus, to: TicketStatus) =>
  new InvalidTransition(`A ticket that is ${from} cannot become ${to}.`, operatorNext(from));

const attachmentTaken = (field: string) =>
  new Invalid("invalid_attachment", "This image is already attached elsewhere.", [
    { field, message: "already attached" },
  ]);

interface SubmitterReply {
  ticket: TicketRow;
  via: "console" | "public" | "email";
  authorUserId: string | null;
  authorName: string;
  message: string;
  lampiranUrl?: string;
  owner: AttachOwner;
  emailMessageId?: string;
  /** Images the Email Worker already stored under support/inbound/. */
  inbound?: { key: string; filename: string; contentType: string; size: number }[];
  extra?: BatchItem<"sqlite">[];
}

/**
 * A reply from the submitter's side (console, public page or email): one batch appends the message,
 * attaches its images and reopens a `selesai` ticket to `diproses`. The reopen is decided in SQL from
 * the row's status at commit time, so a close racing with the reply cannot be lost or misreported.
 */
export async function appendSubmitterReply(ctx: PlatformCtx, reply: SubmitterReply) {
  const db = ctx.platform;
  const ticket = reply.ticket;
  const messageId = newId();
  const now = ctx.now().toISOString();
  const attach = reply.lampiranUrl
    ? await attachStatements(ctx, {
        url: reply.lampiranUrl,
        field: "lampiran_url",
        owner: reply.owner,
        ticketId: ticket.id,
        messageId,
      })
    : null;
  const reopened = sql`(SELECT CASE WHEN ${supportTickets.status} = 'selesai' THEN 'diproses' END FROM ${supportTickets} WHERE ${supportTickets.id} = ${ticket.id})`;
  const statements: [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]] = [
    db.insert(supportTicketMessages).values({
      id: messageId,
      ticketId: ticket.id,
      author: "submitter",
      via: reply.via,
      authorUserId: reply.authorUserId,
      authorName: reply.authorName,
      message: reply.message,
      emailMessageId: reply.emailMessageId ?? null,
      statusChange: reopened,
      createdAt: now,
    }),
    db
      .update(supportTickets)
      .set({
        status: sql`CASE WHEN ${supportTickets.status} = 'selesai' THEN 'diproses' ELSE ${supportTickets.status} END`,
        writeId: newId(),
        updatedAt: now,
      })
      .where(eq(supportTickets.id, ticket.id)),
    ...(attach?.statements ?? []),
    ...(reply.inbound ?? []).map((file) =>
      db.insert(supportFiles).values({
        id: newId(),
        scope: "inbound",
        tenantId: ticket.tenantId,
        uploadedBy: null,
        r2Key: file.key,
        contentType: file.contentType,
        size: file.size,
        filename: file.filename.slice(0, 200),
        ticketId: ticket.id,
        messageId,
        attachedAt: now,
        attachId: newId(),
      }),
    ),
    ...(reply.extra ?? []),
  ];
  try {
    await db.batch(statements);
  } catch (error) {
    if (attach && isBatchAborted(error) && (await attachmentLost(ctx, attach.fileId, attach.attachId))) {
      throw attachmentTaken("lampiran_url");
    }
    throw error;
  }
  const updated = (await loadTicket(ctx, ticket.id)) ?? ticket;
  await notifySubmitterReplied(ctx, updated, {
    messageId,
    message: reply.message,
    authorName: reply.authorName,
  });
  return { messageId, ticket: updated };
}

async function userName(ctx: PlatformCtx, id: string): Promise<string | null> {
  return (await userNames({ ctx, ids: [id] })).get(id) ?? null;
}

export async function replyFromConsole({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: ReplyInput;
}) {
  const user = requireUser(ctx);
  const ticket = await loadTenantTicket(ctx, id);
  const { ticket: updated } = await appendSubmitterReply(ctx, {
    ticket,
    via: "console",
    authorUserId: user.userId,
    authorName: (await userName(ctx, user.userId)) ?? ticket.submitterName,
    message: input.message,
    lampiranUrl: input.lampiran_url,
    owner: { scope: "tenant", tenantId: ctx.tenant.id },
    extra: [
      platformAudit(ctx, { action: "support_ticket.reply", targetType: "support_ticket", targetId: id }),
    ],
  });
  return threadOf(ctx, updated, consoleUrls(ctx));
}

/**
 * The operator's PATCH: a response, a status change, or both, in one batch with its audit record.
 * The transition is checked on the loaded row and again inside the batch: the UPDATE only matches the
 * allowed source states, and a guard aborts the batch unless that UPDATE (marked by a fresh write id)
 * is the one that landed, so a reply reopening the ticket meanwhile turns the PATCH into a 409.
 */
export async function respondToTicket({
  ctx,
  id,
  input,
}: {
  ctx: PlatformCtx;
  id: string;
  input: RespondInput;
}) {
  const user = requireUser(ctx);
  const ticket = await loadAnyTicket(ctx, id);
  // Repeating the current status alongside a message is a response, not a transition.
  const target =
    input.status !== undefined && !(input.status === ticket.status && input.message) ? input.status : null;
  if (target && !OPERATOR_FROM[target].includes(ticket.status)) {
    throw invalidTransition(ticket.status, target);
  }
  const db = ctx.platform;
  const writeId = newId();
  const messageId = newId();
  const now = ctx.now().toISOString();
  const attach = input.lampiran_url
    ? await attachStatements(ctx, {
        url: input.lampiran_url,
        field: "lampiran_url",
        owner: { scope: "platform" },
        ticketId: ticket.id,
        messageId,
      })
    : null;
  const responderName = (await userName(ctx, user.userId)) ?? "Tim Dukungan Warga";
  const statements: [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]] = [
    db
      .update(supportTickets)
      .set({ ...(target ? { status: target } : {}), writeId, updatedAt: now })
      .where(
        target
          ? sql`${supportTickets.id} = ${ticket.id} AND ${inArray(supportTickets.status, [...OPERATOR_FROM[target]])}`
          : eq(supportTickets.id, ticket.id),
      ),
    abortBatchUnless(db, supportTickets, ticket.id, sql`${supportTickets.writeId} = ${writeId}`),
    ...(input.message
      ? [
          db.insert(supportTicketMessages).values({
            id: messageId,
            ticketId: ticket.id,
            author: "operator",
            via: "console",
            authorUserId: user.userId,
            authorName: responderName,
            message: input.message,
            statusChange: target,
            createdAt: now,
          }),
        ]
      : []),
    ...(attach?.statements ?? []),
    platformAudit(ctx, {
      tenantId: ticket.tenantId,
      action: input.message ? "support_ticket.respond" : "support_ticket.status",
      targetType: "support_ticket",
      targetId: ticket.id,
      detail: { from: ticket.status, to: target ?? ticket.status, message: Boolean(input.message) },
    }),
  ];
  try {
    await db.batch(statements);
  } catch (error) {
    if (!isBatchAborted(error)) {
      throw error;
    }
    if (attach && (await attachmentLost(ctx, attach.fileId, attach.attachId))) {
      throw attachmentTaken("lampiran_url");
    }
    const current = await loadAnyTicket(ctx, id);
    throw invalidTransition(current.status, target ?? current.status);
  }
  const updated = await loadAnyTicket(ctx, id);
  await notifyResponded(ctx, updated, {
    writeId,
    message: input.message ?? `Status tiket diubah menjadi ${updated.status}.`,
    responderName,
  });
  return threadOf(ctx, (await loadTicket(ctx, id)) ?? updated, consoleUrls(ctx));
}
