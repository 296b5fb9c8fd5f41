import { eq } from "drizzle-orm";
import type { PlatformCtx, ServiceEnv } from "../../core/context";
import { isUniqueViolation } from "../../core/db/errors";
import { Invalid, Unavailable } from "../../core/errors";
import { type ImageUpload, MAX_IMAGE_BYTES } from "../../core/files";
import { log } from "../../core/http/log";
import { newId } from "../../core/ids";
import { storePublic } from "./files";
import { supportRateLimit } from "./limits";
import { appendSubmitterReply } from "./messages";
import { notifyContact } from "./notifications";
import { supportTicketMessages, supportTickets } from "./platform-tables";
import type { ContactInput, InboundReplyInput, ReplyInput } from "./schemas";
import { findTicketByToken, loadTicket, publicFileUrl, replyTokenOf, type TicketRow } from "./store";
import { nextNumber, publicUrls, threadOf } from "./tickets";

/** What the login-free page shows: the conversation, not the submitter's contact details. */
export async function publicThread(ctx: PlatformCtx, ticket: TicketRow, token: string) {
  const thread = await threadOf(ctx, ticket, publicUrls(ctx, token));
  return {
    number: thread.number,
    category: thread.category,
    title: thread.title,
    detail: thread.detail,
    status: thread.status,
    attachment_url: thread.attachment_url,
    created_at: thread.created_at,
    messages: thread.messages.map(({ via: _via, ...m }) => m),
  };
}

export async function getPublicTicket({ ctx, input }: { ctx: PlatformCtx; input: { token: string } }) {
  await supportRateLimit(ctx.env, [{ policy: "support-public-read:ip", subject: ctx.ip }]);
  return publicThread(ctx, await findTicketByToken(ctx, input.token), input.token);
}

/**
 * A reply through the public page (JSON, or its HTML form with the image itself as `upload`): the
 * token is the only credential.
 */
export async function replyPublic({
  ctx,
  input,
}: {
  ctx: PlatformCtx;
  input: ReplyInput & { token: string; upload?: ImageUpload };
}) {
  const { token } = input;
  await supportRateLimit(ctx.env, [
    { policy: "support-public-write:ip", subject: ctx.ip },
    { policy: "support-public-write:token", subject: token },
  ]);
  const ticket = await findTicketByToken(ctx, token);
  const lampiranUrl = input.upload
    ? publicFileUrl(ctx, token, await storePublic(ctx, ticket, input.upload))
    : input.lampiran_url;
  const { ticket: updated } = await appendSubmitterReply(ctx, {
    ticket,
    via: "public",
    authorUserId: null,
    authorName: ticket.submitterName,
    message: input.message,
    lampiranUrl,
    owner: { scope: "public", ticketId: ticket.id },
  });
  return publicThread(ctx, updated, token);
}

const INBOUND_PREFIX = "support/inbound/";

/**
 * The Email Worker's reply. Idempotent on the email's Message-ID: a redelivery answers `duplicate`,
 * and two deliveries racing each other meet the UNIQUE index, so only one is ever appended.
 */
export async function appendInbound({
  ctx,
  input,
}: {
  ctx: PlatformCtx;
  input: InboundReplyInput;
}): Promise<{ ticketId: string; messageId: string } | { duplicate: true }> {
  const ticket = await findTicketByToken(ctx, input.replyToken);
  const seen = await ctx.platform
    .select({ id: supportTicketMessages.id })
    .from(supportTicketMessages)
    .where(eq(supportTicketMessages.emailMessageId, input.messageId))
    .get();
  if (seen) {
    return { duplicate: true };
  }
  for (const [i, file] of input.attachments.entries()) {
    const field = `attachments.${i}.key`;
    if (
      !file.key.startsWith(INBOUND_PREFIX) ||
      file.key.includes("..") ||
      !file.contentType.startsWith("image/")
    ) {
      throw new Invalid("invalid_attachment", "Attachments are images stored under support/inbound/.", [
        { field, message: "not an inbound image key" },
      ]);
    }
    if (file.size > MAX_IMAGE_BYTES || !(await ctx.env.FILES.head(file.key))) {
      throw new Invalid("invalid_attachment", "An attachment is missing or too large.", [
        { field, message: "missing or too large" },
      ]);
    }
  }
  const text = input.text.trim();
  if (!text && input.attachments.length === 0) {
    throw new Invalid("empty_reply", "The reply has neither text nor images.", [
      { field: "text", message: "empty" },
    ]);
  }
  try {
    const { messageId } = await appendSubmitterReply(ctx, {
      ticket,
      via: "email",
      authorUserId: null,
      authorName: input.from.name?.trim() || input.from.address,
      message: text.slice(0, 20_000),
      owner: { scope: "public", ticketId: ticket.id },
      emailMessageId: input.messageId,
      inbound: input.attachments,
    });
    return { ticketId: ticket.id, messageId };
  } catch (error) {
    if (isUniqueViolation(error, "support_ticket_messages.email_message_id")) {
      return { duplicate: true };
    }
    throw error;
  }
}

type SupportEnv = ServiceEnv & { TURNSTILE_SECRET_KEY?: string };

/** Cloudflare Turnstile's server-side check (https://developers.cloudflare.com/turnstile/get-started/server-side-validation/). */
async function verifyTurnstile(env: SupportEnv, token: string | undefined, ip: string | null): Promise<void> {
  const secret = env.TURNSTILE_SECRET_KEY;
  if (!secret) {
    return;
  }
  if (!token) {
    throw new Invalid("turnstile_required", "Complete the anti-robot check.", [
      { field: "turnstileToken", message: "required" },
    ]);
  }
  const body = new FormData();
  body.set("secret", secret);
  body.set("response", token);
  if (ip) {
    body.set("remoteip", ip);
  }
  let outcome: { success?: boolean; "error-codes"?: string[] };
  try {
    const res = await fetch("https://challenges.cloudflare.com/turnstile/v0/siteverify", {
      method: "POST",
      body,
    });
    outcome = (await res.json()) as typeof outcome;
  } catch (error) {
    log("warn", "turnstile_unreachable", { error: String(error) });
    throw new Unavailable("turnstile_unavailable", "The anti-robot check is unavailable; try again later.");
  }
  if (!outcome.success) {
    throw new Invalid("turnstile_failed", "The anti-robot check failed; try again.", [
      { field: "turnstileToken", message: (outcome["error-codes"] ?? []).join(", ") || "rejected" },
    ]);
  }
}

/**
 * The marketing site's contact form becomes a `homepage` ticket. A bot caught by the honeypot gets
 * the same answer as a person, so the form teaches it nothing.
 */
export async function submitContact({ ctx, input }: { ctx: PlatformCtx; input: ContactInput }) {
  await supportRateLimit(ctx.env, [
    { policy: "support-contact:ip", subject: ctx.ip },
    { policy: "support-contact:email", subject: input.email },
  ]);
  if (input.website) {
    return { status: "diterima" as const };
  }
  await verifyTurnstile(ctx.env, input.turnstileToken, ctx.ip);
  const id = newId();
  const now = ctx.now().toISOString();
  const { hash } = await replyTokenOf(ctx, id);
  await ctx.platform.insert(supportTickets).values({
    id,
    number: nextNumber,
    tenantId: null,
    tenantSlug: null,
    source: "homepage",
    category: "kontak",
    title: input.subject,
    detail: input.message,
    status: "baru",
    replyTokenHash: hash,
    submitterName: input.name,
    submitterEmail: input.email,
    submitterPhone: input.phone ?? null,
    writeId: newId(),
    createdAt: now,
    updatedAt: now,
  });
  const ticket = await loadTicket(ctx, id);
  if (ticket) {
    await notifyContact(ctx, ticket);
  }
  return { status: "diterima" as const };
}
