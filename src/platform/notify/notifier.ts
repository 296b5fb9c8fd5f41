import type { PlatformCtx, ServiceEnv } from "../../core/context";
import { users } from "../../core/db/identity-schema";
import { rowById } from "../../core/db/rows";
import { log } from "../../core/http/log";
import type { NotifyClient } from "./client";
import { createNotifyClient } from "./client";
import type { PushData } from "./types";

/** The notification client every module uses, wired to this deployment's binding and configuration. */
export function notifyFor(
  env: Pick<
    ServiceEnv,
    "NOTIFY" | "INTERNAL_API_KEY" | "ENVIRONMENT" | "WHATSAPP_GATEWAY_URL" | "WHATSAPP_GATEWAY_TOKEN"
  >,
): NotifyClient {
  const fallback =
    env.WHATSAPP_GATEWAY_URL && env.WHATSAPP_GATEWAY_TOKEN
      ? { url: env.WHATSAPP_GATEWAY_URL, token: env.WHATSAPP_GATEWAY_TOKEN }
      : undefined;
  return createNotifyClient({
    binding: env.NOTIFY,
    internalKey: env.INTERNAL_API_KEY,
    environment: env.ENVIRONMENT,
    whatsappFallback: fallback,
  });
}

/** What a resident is told: an email (a stored template, or a plain subject and text) or, without one, WhatsApp. */
export type ResidentMessage = {
  /** Names the event, so a retried request never tells the same news twice. */
  idempotencyKey: string;
  /** The news in one or two sentences: the plain-text email body, and the WhatsApp message. */
  text: string;
} & ({ subject: string; html?: string } | { template: string; data: Record<string, unknown> });

/**
 * Tells a resident by email, or by WhatsApp when they have no email (resident applications allow
 * that). The change being reported is already stored, so a notification service that is down is
 * logged and answered with `false` (the caller may record the notice as pending), never thrown.
 */
export async function tellResident(
  ctx: Pick<PlatformCtx, "env" | "platform" | "requestId"> & { tenant: { name: string } },
  residentId: string,
  message: ResidentMessage,
): Promise<boolean> {
  const resident = await rowById(ctx.platform, users, residentId);
  if (!resident || !(resident.email || resident.whatsapp)) {
    return false;
  }
  const client = notifyFor(ctx.env);
  try {
    if (resident.email && "template" in message) {
      await client.sendEmail({
        template: message.template,
        to: resident.email,
        data: { name: resident.name, tenantName: ctx.tenant.name, ...message.data },
        idempotencyKey: message.idempotencyKey,
      });
    } else if (resident.email && "subject" in message) {
      await client.sendRawEmail({
        to: resident.email,
        subject: `[${ctx.tenant.name}] ${message.subject}`,
        text: `Halo ${resident.name},\n\n${message.text}`,
        ...(message.html ? { html: message.html } : {}),
        idempotencyKey: message.idempotencyKey,
      });
    } else if (resident.whatsapp) {
      await client.sendWhatsApp({
        to: resident.whatsapp,
        message: `Halo ${resident.name}, ${message.text}`,
        idempotencyKey: message.idempotencyKey,
      });
    }
    return true;
  } catch (error) {
    log("warn", "resident_notify_failed", {
      requestId: ctx.requestId,
      key: message.idempotencyKey,
      error: String(error),
    });
    return false;
  }
}

/** What the summary of a burst says; `{count}` in the title and body stands for the number folded. */
export interface DigestSummary {
  title: string;
  body: string;
  data: PushData;
}

/** One event of a kind in a community, as the StaffDigest object needs it to send the summary later. */
export interface DigestEvent {
  /** The tenant's id (idempotency keys) and slug (the notification service's `tenant`). */
  tenantId: string;
  tenant: string;
  kind: string;
  /** Who is told (the staff's user ids), as of this event: the summary goes to the latest list. */
  recipients: string[];
  summary: DigestSummary;
  windowSeconds: number;
}

export interface DigestDecision {
  /** The first of a burst: the caller tells the staff about this one at once. */
  first: boolean;
  /** Events folded into the summary still to be sent, this one included when not first. */
  pending: number;
}

/** How long a burst's window stays open: later events of the kind within it are folded into one summary. */
export const STAFF_DIGEST_WINDOW_SECONDS = 10 * 60;

export interface StaffEvent {
  /** What happened, one name per kind of event (`pengaduan.baru`): bursts are grouped by kind and community. */
  kind: string;
  /** The staff's user ids. */
  recipients: string[];
  /** This one event, pushed at once when it opens a burst. */
  push: { title: string; body: string; data: PushData };
  /** Names the event, so a retried request never pushes it twice. */
  idempotencyKey: string;
  /** The later events of the burst, told together when the window closes. */
  summary: DigestSummary;
}

/**
 * Tells a community's staff that something arrived, grouped when a burst arrives (ADR 0033): the first
 * event of a kind is pushed at once, and the rest within `STAFF_DIGEST_WINDOW_SECONDS` become one
 * summary ("12 pengaduan baru") sent by the StaffDigest Durable Object of that kind and community. The
 * event is already stored, so a failure is logged, never thrown; if the digest object cannot be reached
 * the event is pushed on its own rather than not at all.
 */
export async function tellStaff(
  ctx: Pick<PlatformCtx, "env" | "requestId"> & { tenant: { id: string; slug: string } },
  event: StaffEvent,
): Promise<void> {
  if (event.recipients.length === 0) {
    return;
  }
  let first = true;
  try {
    const digest = ctx.env.STAFF_DIGEST.get(
      ctx.env.STAFF_DIGEST.idFromName(`${ctx.tenant.id}:${event.kind}`),
    );
    ({ first } = await digest.record({
      tenantId: ctx.tenant.id,
      tenant: ctx.tenant.slug,
      kind: event.kind,
      recipients: event.recipients,
      summary: event.summary,
      windowSeconds: STAFF_DIGEST_WINDOW_SECONDS,
    }));
  } catch (error) {
    log("warn", "staff_digest_unavailable", {
      requestId: ctx.requestId,
      kind: event.kind,
      error: String(error),
    });
  }
  if (!first) {
    return;
  }
  try {
    await notifyFor(ctx.env).fanout({
      reference: `${ctx.tenant.id}:${event.kind}`,
      tenant: ctx.tenant.slug,
      channel: "push",
      recipients: event.recipients.map((userId) => ({ userId })),
      push: event.push,
      idempotencyKey: `${event.idempotencyKey}:push`,
    });
  } catch (error) {
    log("warn", "staff_notify_failed", {
      requestId: ctx.requestId,
      key: event.idempotencyKey,
      error: String(error),
    });
  }
}
