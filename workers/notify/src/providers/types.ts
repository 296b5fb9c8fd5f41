import type { EmailPayload, PushPayload, WhatsAppPayload } from "../payloads";

export type FetchFn = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

export type DeliveryResult =
  | { ok: true; providerMessageId?: string; status?: number; response?: string }
  | {
      ok: false;
      // false: the recipient or content is rejected for good (failed); true: try again later.
      retryable: boolean;
      error: string;
      status?: number;
      response?: string;
      retryAfterSeconds?: number;
      // The push token is gone for good (FCM UNREGISTERED): stop targeting it.
      deactivateToken?: boolean;
      // The call ran out of time after the request may have reached the provider: it may have sent the
      // message or not. Only a provider with an idempotency key may be asked again (ADR 0031).
      unknown?: boolean;
    };

export type DeliveryFailure = Extract<DeliveryResult, { ok: false }>;

/**
 * What every send gets besides the content. `messageId` is our log id: providers that support
 * idempotency keys get it, so a crash or timeout between the provider's success and our log write cannot
 * produce a second message. `signal` is the attempt's deadline (well under the claim's lease): every
 * outbound call of the attempt, a token exchange included, is aborted when it fires.
 */
export interface SendContext {
  messageId: string;
  signal: AbortSignal;
}

/**
 * `idempotent`: asking the provider again with the same `messageId` cannot deliver a second copy, so a
 * call whose outcome is unknown (a timeout) may simply be retried. Without it, such a message is parked
 * for an operator instead (ADR 0031).
 */
export interface EmailProvider {
  readonly name: string;
  readonly idempotent: boolean;
  send(email: EmailPayload & { from: string } & SendContext): Promise<DeliveryResult>;
}

export interface PushProvider {
  readonly name: string;
  readonly idempotent: boolean;
  send(push: PushPayload & SendContext): Promise<DeliveryResult>;
}

export interface WhatsAppProvider {
  readonly name: string;
  readonly idempotent: boolean;
  send(message: WhatsAppPayload & SendContext): Promise<DeliveryResult>;
}

export interface Providers {
  email: EmailProvider | null;
  push: PushProvider | null;
  whatsapp: WhatsAppProvider | null;
}
