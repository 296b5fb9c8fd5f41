import { and, eq } from "drizzle-orm";
import type { PlatformCtx, ServiceEnv } from "../../core/context";
import { tenants } from "../../core/db/platform-schema";
import { log } from "../../core/http/log";
import { notifyFor } from "../../platform/notify";
import { supportTickets } from "./platform-tables";
import { currentReplyToken, operatorTicketUrl, replyPageUrl, replyTokenOf, type TicketRow } from "./store";

/** SUPPORT_OPERATOR_EMAILS: the platform team's inboxes, comma-separated. */
export function operatorEmails(env: ServiceEnv): string[] {
  return (env.SUPPORT_OPERATOR_EMAILS ?? "")
    .split(",")
    .map((a) => a.trim().toLowerCase())
    .filter(Boolean);
}

/** The inbound address the ticket-mail Worker reads: replies to submitter emails land there. */
const replyTo = (env: ServiceEnv) => env.SUPPORT_REPLY_TO || undefined;

/** Only the name is wanted, so a plain read of the tenant row: the email names even a suspended tenant. */
async function tenantName(ctx: PlatformCtx, ticket: TicketRow): Promise<string> {
  if (!ticket.tenantId) {
    return "formulir kontak situs";
  }
  const tenant = await ctx.platform
    .select({ name: tenants.name })
    .from(tenants)
    .where(eq(tenants.id, ticket.tenantId))
    .get();
  return tenant?.name ?? `Tenant ${ticket.tenantSlug}`;
}

/**
 * Every email about a ticket carries this reference, so the notification service's delivery summary
 * (`GET /v1/fanout/summary?reference=`) says what became of all of them.
 */
export const ticketReference = (ticketId: string) => `support-ticket:${ticketId}`;

/**
 * Hands every email to the notification service. Handing over is not delivering: the ticket is marked
 * `notification_pending` until the service reports every email sent (`withDeliveryState`). A service that
 * is down must not lose the ticket or the message that caused the email: that write has committed
 * already, so a failure is logged and the ticket marked `notification_failed` too, since nothing will
 * send that email.
 */
async function deliver(
  ctx: PlatformCtx,
  ticket: TicketRow,
  event: string,
  sends: (() => Promise<unknown>)[],
): Promise<boolean> {
  if (sends.length === 0) {
    return true;
  }
  const results = await Promise.allSettled(sends.map((send) => send()));
  const failed = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed.length > 0) {
    log("warn", "support_notify_failed", {
      requestId: ctx.requestId,
      ticket: ticket.id,
      event,
      errors: failed.map((f) => String(f.reason)),
    });
  }
  await ctx.platform
    .update(supportTickets)
    .set(
      failed.length > 0
        ? { notificationPending: true, notificationFailed: true }
        : { notificationPending: true },
    )
    .where(eq(supportTickets.id, ticket.id));
  return failed.length === 0;
}

/**
 * The ticket's notification state as the notification service knows it. While the ticket says an email
 * is pending (and none has failed yet), the service's delivery summary for the ticket decides: all sent
 * clears `notification_pending`; any failed or dead sets `notification_failed` (the service has alerted
 * the operators). The answer is stored, so lists show it and a settled ticket is never asked about again.
 * A service that cannot be asked leaves the ticket as it was: pending stays pending.
 */
export async function withDeliveryState(ctx: PlatformCtx, ticket: TicketRow): Promise<TicketRow> {
  if (!ticket.notificationPending || ticket.notificationFailed) {
    return ticket;
  }
  let email: { total: number; queued: number; failed: number };
  try {
    email = (await notifyFor(ctx.env).deliverySummary(ticketReference(ticket.id))).channels.email;
  } catch (error) {
    log("warn", "support_delivery_state_unknown", {
      requestId: ctx.requestId,
      ticket: ticket.id,
      error: String(error),
    });
    return ticket;
  }
  const failed = email.failed > 0;
  const pending = failed || email.queued > 0 || email.total === 0;
  if (pending === ticket.notificationPending && !failed) {
    return ticket;
  }
  // Guarded by the state read, so a newer email handed over meanwhile (pending again) is not cleared.
  await ctx.platform
    .update(supportTickets)
    .set({ notificationPending: pending, notificationFailed: failed })
    .where(and(eq(supportTickets.id, ticket.id), eq(supportTickets.notificationFailed, false)));
  return { ...ticket, notificationPending: pending, notificationFailed: failed };
}

export async function notifyTicketCreated(ctx: PlatformCtx, ticket: TicketRow) {
  const notify = notifyFor(ctx.env);
  const operators = operatorEmails(ctx.env);
  const name = await tenantName(ctx, ticket);
  const token = await currentReplyToken(ctx, ticket);
  const sends: (() => Promise<unknown>)[] = [];
  if (ticket.submitterEmail) {
    const email = ticket.submitterEmail;
    sends.push(() =>
      notify.sendEmail({
        template: "SUPPORT_TICKET_CREATED",
        to: email,
        data: {
          replyToken: token,
          ticketNumber: String(ticket.number),
          ticketSubject: ticket.title,
          submitterName: ticket.submitterName,
          ticketUrl: replyPageUrl(ctx, token),
          tenantName: name,
          message: ticket.detail,
        },
        replyTo: replyTo(ctx.env),
        reference: ticketReference(ticket.id),
        idempotencyKey: `support-ticket:${ticket.id}:created`,
      }),
    );
  }
  if (operators.length > 0) {
    sends.push(() =>
      notify.sendRawEmail({
        to: operators,
        subject: `Tiket baru #${ticket.number} dari Tenant ${ticket.tenantSlug}: ${ticket.title}`.slice(
          0,
          300,
        ),
        text: `${ticket.submitterName} (${name}) membuat tiket #${ticket.number}.\n\nKategori: ${ticket.category}\nJudul: ${ticket.title}\n\n${ticket.detail}\n\nBuka tiket: ${operatorTicketUrl(ctx, ticket.id)}`,
        reference: ticketReference(ticket.id),
        idempotencyKey: `support-ticket:${ticket.id}:operators-new`,
      }),
    );
  }
  return deliver(ctx, ticket, "created", sends);
}

/** A submitter's reply (console, public page or email) tells the operators. */
export async function notifySubmitterReplied(
  ctx: PlatformCtx,
  ticket: TicketRow,
  reply: { messageId: string; message: string; authorName: string },
) {
  const operators = operatorEmails(ctx.env);
  if (operators.length === 0) {
    return true;
  }
  const name = await tenantName(ctx, ticket);
  const { token } = await replyTokenOf(ctx, ticket.id);
  return deliver(ctx, ticket, "submitter_replied", [
    () =>
      notifyFor(ctx.env).sendEmail({
        template: "SUPPORT_TICKET_SUBMITTER_REPLIED",
        to: operators,
        data: {
          replyToken: token,
          ticketNumber: String(ticket.number),
          ticketSubject: ticket.title,
          submitterName: reply.authorName,
          message: reply.message || "(gambar terlampir)",
          ticketUrl: operatorTicketUrl(ctx, ticket.id),
          tenantName: name,
        },
        reference: ticketReference(ticket.id),
        idempotencyKey: `support-ticket:${ticket.id}:replied:${reply.messageId}`,
      }),
  ]);
}

/** An operator's response or status change goes to the submitter, with the reply page as its button. */
export async function notifyResponded(
  ctx: PlatformCtx,
  ticket: TicketRow,
  response: { writeId: string; message: string; responderName: string },
) {
  const email = ticket.submitterEmail;
  if (!email) {
    return true;
  }
  const token = await currentReplyToken(ctx, ticket);
  return deliver(ctx, ticket, "responded", [
    () =>
      notifyFor(ctx.env).sendEmail({
        template: "SUPPORT_TICKET_RESPONDED",
        to: email,
        data: {
          replyToken: token,
          ticketNumber: String(ticket.number),
          ticketSubject: ticket.title,
          submitterName: ticket.submitterName,
          message: response.message,
          status: ticket.status,
          ticketUrl: replyPageUrl(ctx, token),
          responderName: response.responderName,
        },
        replyTo: replyTo(ctx.env),
        reference: ticketReference(ticket.id),
        idempotencyKey: `support-ticket:${ticket.id}:responded:${response.writeId}`,
      }),
  ]);
}

export async function notifyContact(ctx: PlatformCtx, ticket: TicketRow) {
  const notify = notifyFor(ctx.env);
  const operators = operatorEmails(ctx.env);
  const token = await currentReplyToken(ctx, ticket);
  const sends: (() => Promise<unknown>)[] = [];
  if (operators.length > 0) {
    sends.push(() =>
      notify.sendEmail({
        template: "CONTACT_INQUIRY",
        to: operators,
        data: {
          name: ticket.submitterName,
          email: ticket.submitterEmail,
          phone: ticket.submitterPhone ?? "-",
          message: `${ticket.title}\n\n${ticket.detail}`,
        },
        reference: ticketReference(ticket.id),
        idempotencyKey: `contact:${ticket.id}:inquiry`,
      }),
    );
  }
  if (ticket.submitterEmail) {
    const email = ticket.submitterEmail;
    sends.push(() =>
      notify.sendEmail({
        template: "CONTACT_AUTO_REPLY",
        to: email,
        data: {
          name: ticket.submitterName,
          message: ticket.detail,
          // For the subject's [TKT:{{replyToken}}]: replies by email find this ticket through it.
          replyToken: token,
          ticketUrl: replyPageUrl(ctx, token),
        },
        replyTo: replyTo(ctx.env),
        reference: ticketReference(ticket.id),
        idempotencyKey: `contact:${ticket.id}:auto-reply`,
      }),
    );
  }
  return deliver(ctx, ticket, "contact", sends);
}
