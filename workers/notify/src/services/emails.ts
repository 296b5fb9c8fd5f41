import type { EmailPayload } from "../payloads";
import { requireChannel } from "./channels";
import type { ServiceContext } from "./context";
import { type EnqueueResult, enqueue } from "./outbox";
import { renderForSend } from "./templates";

const recipientsOf = (to: string | string[]) => [...new Set(Array.isArray(to) ? to : [to])];

export interface SendTemplateEmailInput {
  template: string;
  to: string | string[];
  data: Record<string, unknown>;
  locale?: string;
  replyTo?: string;
  reference?: string;
  idempotencyKey?: string;
}

export async function sendTemplateEmail(
  ctx: ServiceContext,
  input: SendTemplateEmailInput,
): Promise<EnqueueResult> {
  requireChannel(ctx, "email");
  const { idempotencyKey, ...request } = input;
  return enqueue(ctx, {
    operation: "emails.send",
    idempotencyKey,
    request,
    build: async () => {
      const parts = await renderForSend(ctx, {
        code: input.template,
        locale: input.locale,
        data: input.data,
      });
      return recipientsOf(input.to).map((to) => {
        const payload: EmailPayload = { to, subject: parts.subject, html: parts.html, text: parts.text };
        if (input.replyTo) {
          payload.replyTo = input.replyTo;
        }
        return {
          channel: "email" as const,
          recipient: to,
          template: input.template,
          subject: parts.subject,
          payload,
          ...(input.reference ? { reference: input.reference } : {}),
        };
      });
    },
  });
}

export interface SendRawEmailInput {
  to: string | string[];
  subject: string;
  html?: string;
  text?: string;
  replyTo?: string;
  headers?: Record<string, string>;
  reference?: string;
  idempotencyKey?: string;
}

export async function sendRawEmail(ctx: ServiceContext, input: SendRawEmailInput): Promise<EnqueueResult> {
  requireChannel(ctx, "email");
  const { idempotencyKey, ...request } = input;
  return enqueue(ctx, {
    operation: "emails.raw",
    idempotencyKey,
    request,
    build: () =>
      recipientsOf(input.to).map((to) => {
        const { to: _to, reference, ...rest } = request;
        const payload: EmailPayload = { to, ...rest };
        return {
          channel: "email" as const,
          recipient: to,
          subject: input.subject,
          payload,
          ...(reference ? { reference } : {}),
        };
      }),
  });
}
