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
    };

// `messageId` is our log id: providers that support idempotency keys get it, so a crash between the
// provider's success and our log write cannot produce a second email.
export interface EmailProvider {
  readonly name: string;
  send(email: EmailPayload & { from: string; messageId: string }): Promise<DeliveryResult>;
}

export interface PushProvider {
  readonly name: string;
  send(push: PushPayload & { messageId: string }): Promise<DeliveryResult>;
}

export interface WhatsAppProvider {
  readonly name: string;
  send(message: WhatsAppPayload & { messageId: string }): Promise<DeliveryResult>;
}

export interface Providers {
  email: EmailProvider | null;
  push: PushProvider | null;
  whatsapp: WhatsAppProvider | null;
}
