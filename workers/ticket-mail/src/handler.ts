import { deleteStored, messagePrefix, type StoredAttachment, sha256Hex, storeImages } from "./attachments";
import { readConfig } from "./config";
import { forwardReply, RetryLaterError } from "./forward";
import { log } from "./log";
import { extractReply, findReplyToken, messageIdentity, readMessage, robotReason, senderOf } from "./parse";

export const REJECT_NO_TOKEN = "No ticket reference [TKT:...] in the subject";
export const REJECT_EMPTY = "The reply has no new text or image";

// Written after a successful hand-over so a redelivery stops before storing anything again.
// The main API's unique Message-ID index stays the authority; this only saves work.
const DELIVERED_MARKER = "delivered.json";

export async function handleEmail(
  message: ForwardableEmailMessage,
  env: Env,
  _ctx: ExecutionContext,
): Promise<void> {
  const started = Date.now();
  const config = readConfig(env);
  const email = await readMessage(message.raw);
  const base = { rawSize: message.rawSize, attachmentCount: email.attachments.length };

  const robot = robotReason(email.headers, message.from);
  if (robot !== null) {
    log("info", "ticket_mail.dropped_robot", { ...base, reason: robot });
    return;
  }
  const replyToken = findReplyToken(email.subject);
  if (replyToken === null) {
    message.setReject(REJECT_NO_TOKEN);
    log("info", "ticket_mail.rejected", { ...base, reason: "no_token" });
    return;
  }

  const messageId = await messageIdentity(email, message.from);
  const messageHash = await sha256Hex(messageId);
  const prefix = messagePrefix(messageHash);
  // A hash prefix lets operators follow one message through the logs without its id.
  const ref = { ...base, message: messageHash.slice(0, 16) };
  if ((await env.FILES.head(`${prefix}${DELIVERED_MARKER}`)) !== null) {
    log("info", "ticket_mail.duplicate", { ...ref, shortCircuit: true });
    return;
  }

  const reply = extractReply(email);
  const { stored, skipped } = await storeImages({
    bucket: env.FILES,
    attachments: email.attachments,
    messageId,
    replyToken,
    selection: reply,
  });
  if (reply.text.length === 0 && stored.length === 0) {
    message.setReject(REJECT_EMPTY);
    log("info", "ticket_mail.rejected", { ...ref, reason: "empty", source: reply.source });
    return;
  }

  const details = { ...ref, source: reply.source, stored: stored.length, skipped };
  let result: Awaited<ReturnType<typeof forwardReply>>;
  try {
    result = await forwardReply(env.API, config.INTERNAL_API_KEY, {
      replyToken,
      messageId,
      from: senderOf(email, message.from),
      subject: email.subject ?? "",
      text: reply.text,
      attachments: stored,
      receivedAt: new Date().toISOString(),
    });
  } catch (error) {
    // The retry stores the images again under the same keys; until then nothing is orphaned.
    await cleanUp(env.FILES, stored);
    const status = error instanceof RetryLaterError ? error.status : null;
    const reason = error instanceof Error ? error.message : "unknown";
    log("error", "ticket_mail.retry_later", { ...details, status, reason, ms: Date.now() - started });
    throw error;
  }

  switch (result.outcome) {
    case "appended":
    case "duplicate": {
      // A duplicate's images must stay: the keys are the ones the first delivery handed over.
      await markDelivered(env.FILES, `${prefix}${DELIVERED_MARKER}`);
      const ticketId = result.outcome === "appended" ? result.ticketId : undefined;
      log("info", `ticket_mail.${result.outcome}`, { ...details, ticketId, ms: Date.now() - started });
      return;
    }
    case "rejected": {
      await cleanUp(env.FILES, stored);
      message.setReject(result.reason);
      log("info", "ticket_mail.rejected", { ...details, status: result.status, code: result.code });
      return;
    }
  }
}

async function markDelivered(bucket: R2Bucket, key: string): Promise<void> {
  try {
    await bucket.put(key, JSON.stringify({ at: new Date().toISOString() }), {
      httpMetadata: { contentType: "application/json" },
    });
  } catch (error) {
    // Only an optimisation: without it a redelivery is still caught by the main API.
    log("warn", "ticket_mail.marker_failed", { error: String(error) });
  }
}

async function cleanUp(bucket: R2Bucket, stored: StoredAttachment[]): Promise<void> {
  try {
    await deleteStored(bucket, stored);
  } catch (error) {
    log("error", "ticket_mail.cleanup_failed", { keys: stored.length, error: String(error) });
  }
}
