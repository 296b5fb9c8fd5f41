import type { PlatformCtx, ServiceEnv } from "./context";
import { users } from "./db/platform-schema";
import { rowById } from "./db/rows";
import { log } from "./http/log";
import type { NotifyClient } from "./notify/client";
import { createNotifyClient } from "./notify/client";

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
