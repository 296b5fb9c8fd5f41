import { platformAudit } from "../../core/audit";
import type { PlatformCtx } from "../../core/context";
import { Conflict, DomainError, NotFound } from "../../core/errors";
import { tenantRowById } from "../../core/tenancy/contexts";
import {
  type DeliveryAttempt,
  type DeliveryLogQuery,
  type DeliveryMessage,
  NotifyRequestError,
  NotifyUnavailable,
  notifyFor,
} from "../../platform/notify";

/**
 * The operator's view of the notification service's delivery log (issue 47 item 4): the service's
 * `/v1/messages` routes, reached over the NOTIFY binding with its internal key, never by the browser.
 * What leaves here names no one: a recipient (an email address, a phone number, a device token) is
 * masked wherever it shows, and a message's payload (the text a person was sent) is not passed on.
 */

/** Seconds an operator waits before asking a notification service that did not answer again. */
const NOTIFY_RETRY_AFTER = 2;

/** `budi.santoso@example.id` → `b***@example.id`, `6281234567890` → `6281******890`, a token → `abcdef…`. */
export function maskRecipient(recipient: string): string {
  const at = recipient.lastIndexOf("@");
  if (at > 0) {
    return `${recipient[0]}***${recipient.slice(at)}`;
  }
  if (/^\+?\d{8,15}$/.test(recipient)) {
    return `${recipient.slice(0, 4)}${"*".repeat(recipient.length - 7)}${recipient.slice(-3)}`;
  }
  return recipient.length > 8 ? `${recipient.slice(0, 6)}…` : "***";
}

/** A provider's error may quote the address it refused: it shows masked too. */
function maskedText(text: string | null, recipient: string, masked: string): string | null {
  return text === null || recipient.length < 3 ? text : text.split(recipient).join(masked);
}

function view(message: DeliveryMessage) {
  const recipient = maskRecipient(message.recipient);
  return {
    id: message.id,
    channel: message.channel,
    status: message.status,
    recipient,
    template: message.template,
    subject: message.subject,
    reference: message.reference ?? null,
    tenantId: message.reference?.split(":")[0] ?? null,
    attempts: message.attempts,
    lastError: maskedText(message.lastError, message.recipient, recipient),
    createdAt: message.createdAt,
    updatedAt: message.updatedAt,
    sentAt: message.sentAt,
    retryable: message.status === "dead" || message.status === "failed",
  };
}

function attemptView(attempt: DeliveryAttempt, recipient: string, masked: string) {
  return {
    attempt: attempt.attempt,
    startedAt: attempt.startedAt,
    finishedAt: attempt.finishedAt,
    outcome: attempt.outcome,
    providerStatus: attempt.providerStatus,
    providerResponse: maskedText(attempt.providerResponse, recipient, masked),
    error: maskedText(attempt.error, recipient, masked),
  };
}

/** The service's answers in this API's words: down is 503 (never a 500), its 404 and 409 are ours. */
async function viaNotify<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof NotifyUnavailable) {
      throw new DomainError(
        "unavailable",
        "notification_unavailable",
        "The notification service is not answering; try again shortly.",
        { retryAfter: NOTIFY_RETRY_AFTER },
      );
    }
    if (error instanceof NotifyRequestError && error.status === 404) {
      throw new NotFound("Message", "message_not_found");
    }
    if (error instanceof NotifyRequestError && error.status === 409) {
      throw new Conflict("message_not_retryable", error.message);
    }
    throw error;
  }
}

export async function listDeliveries({
  ctx,
  input,
}: {
  ctx: PlatformCtx;
  input: Omit<DeliveryLogQuery, "tenant"> & { tenantId?: string };
}) {
  const { tenantId, ...filters } = input;
  if (tenantId) {
    // An unknown community is a 404, not an empty list that looks like "nothing went wrong there".
    await tenantRowById(ctx, tenantId);
  }
  const page = await viaNotify(() =>
    notifyFor(ctx.env).messages({ ...filters, ...(tenantId ? { tenant: tenantId } : {}) }),
  );
  return { items: page.items.map(view), nextCursor: page.nextCursor };
}

export async function getDelivery({ ctx, id }: { ctx: PlatformCtx; id: string }) {
  const message = await viaNotify(() => notifyFor(ctx.env).message(id));
  const summary = view(message);
  return {
    ...summary,
    attemptLog: message.attemptLog.map((a) => attemptView(a, message.recipient, summary.recipient)),
  };
}

/**
 * Queues a parked or failed message again; the service's conditional claim makes a double press a 409.
 * The queueing is the service's write, so the operator's audit record follows it (it cannot share a batch
 * with another Worker's database) and names the message and the community it was about.
 */
export async function retryDelivery({ ctx, id }: { ctx: PlatformCtx; id: string }) {
  await viaNotify(() => notifyFor(ctx.env).retryMessage(id));
  const message = await getDelivery({ ctx, id });
  await ctx.platform.batch([
    platformAudit(ctx, {
      action: "notification.retried",
      tenantId: null,
      targetType: "notification_message",
      targetId: id,
      detail: { channel: message.channel, reference: message.reference },
    }),
  ]);
  return message;
}
