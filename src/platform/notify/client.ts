import { type NotifyProblem, NotifyRequestError, NotifyUnavailable } from "./errors";
import { currentRequestId } from "./requestId";
import type {
  BlastWhatsAppInput,
  DeliveryAttempt,
  DeliveryLogQuery,
  DeliveryMessage,
  DeliveryStats,
  DeliverySummary,
  Device,
  FanoutInput,
  NotificationPreferences,
  NotifyClientOptions,
  RegisterDeviceInput,
  SendEmailInput,
  SendPushInput,
  SendRawEmailInput,
  SendResult,
  SendWhatsAppInput,
} from "./types";
import { sendDirect } from "./whatsappFallback";

// The host is never resolved: a service binding routes by binding, not by name.
const BASE = "https://notify.internal";

interface Accepted {
  messageIds: string[];
  replayed: boolean;
  batchId?: string;
}

// The one way the main API talks to the notification service. Every send returns the service's message ids
// once the message is in the delivery log and queued; delivery itself happens later, in the service.
export class NotifyClient {
  constructor(private readonly options: NotifyClientOptions) {}

  sendEmail(input: SendEmailInput): Promise<SendResult> {
    return this.send("/v1/emails/send", input);
  }

  sendRawEmail(input: SendRawEmailInput): Promise<SendResult> {
    return this.send("/v1/emails/raw", input);
  }

  sendPush(input: SendPushInput): Promise<SendResult> {
    return this.send("/v1/push/send", input);
  }

  async sendWhatsApp(input: SendWhatsAppInput): Promise<SendResult> {
    return this.withWhatsAppFallback(
      () => this.send("/v1/whatsapp/send", input),
      [{ to: input.to }],
      input.message,
    );
  }

  async blastWhatsApp(input: BlastWhatsAppInput): Promise<SendResult> {
    return this.withWhatsAppFallback(
      () => this.send("/v1/whatsapp/blast", input),
      input.recipients,
      input.message,
    );
  }

  async registerDevice(input: RegisterDeviceInput): Promise<Device> {
    const response = await this.request("POST", "/v1/devices", input);
    return (await response.json()) as Device;
  }

  /** Backlog, dead letters and the last failures per channel, for the operator's health view. */
  async stats(): Promise<DeliveryStats> {
    const response = await this.request("GET", "/v1/stats");
    return (await response.json()) as DeliveryStats;
  }

  /** The delivery log, newest first; `nextCursor` is the service's own (the last id shown). */
  async messages(query: DeliveryLogQuery): Promise<{ items: DeliveryMessage[]; nextCursor: string | null }> {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined) {
        params.set(key, String(value));
      }
    }
    const response = await this.request("GET", `/v1/messages?${params}`);
    return (await response.json()) as { items: DeliveryMessage[]; nextCursor: string | null };
  }

  /** One message with every delivery attempt (and its payload, which operators' views leave out). */
  async message(id: string): Promise<DeliveryMessage & { attemptLog: DeliveryAttempt[] }> {
    const response = await this.request("GET", `/v1/messages/${encodeURIComponent(id)}`);
    return (await response.json()) as DeliveryMessage & { attemptLog: DeliveryAttempt[] };
  }

  /** Queues a parked (`dead`) or `failed` message again; 409 `message_not_dead` for any other. */
  async retryMessage(id: string): Promise<{ messageIds: string[] }> {
    const response = await this.request("POST", `/v1/messages/${encodeURIComponent(id)}/retry`);
    return (await response.json()) as { messageIds: string[] };
  }

  // Logout must not fail because the token was already gone (FCM may have reported it unregistered).
  async unregisterDevice(token: string): Promise<void> {
    try {
      await this.request("DELETE", `/v1/devices/${encodeURIComponent(token)}`);
    } catch (err) {
      if (err instanceof NotifyRequestError && err.status === 404) {
        return;
      }
      throw err;
    }
  }

  /** One channel of a fan-out to users; the service applies their preferences and quiet hours. */
  fanout(input: FanoutInput): Promise<SendResult> {
    return this.send("/v1/fanout", input);
  }

  async deliverySummary(reference: string): Promise<DeliverySummary> {
    const response = await this.request(
      "GET",
      `/v1/fanout/summary?reference=${encodeURIComponent(reference)}`,
    );
    return (await response.json()) as DeliverySummary;
  }

  async preferences(userId: string): Promise<NotificationPreferences> {
    const response = await this.request("GET", `/v1/preferences/${encodeURIComponent(userId)}`);
    return (await response.json()) as NotificationPreferences;
  }

  async setPreferences(userId: string, input: NotificationPreferences): Promise<NotificationPreferences> {
    const response = await this.request("PUT", `/v1/preferences/${encodeURIComponent(userId)}`, input);
    return (await response.json()) as NotificationPreferences;
  }

  /** Removes the token only if it is registered to `userId`; false when it is not (or unknown). */
  async unregisterDeviceOf(userId: string, token: string): Promise<boolean> {
    try {
      await this.request(
        "DELETE",
        `/v1/devices/${encodeURIComponent(token)}?userId=${encodeURIComponent(userId)}`,
      );
      return true;
    } catch (err) {
      if (err instanceof NotifyRequestError && err.status === 404) {
        return false;
      }
      throw err;
    }
  }

  private async send(path: string, input: { idempotencyKey?: string }): Promise<SendResult> {
    const response = await this.request("POST", path, input, input.idempotencyKey);
    const body = (await response.json()) as Accepted;
    return {
      messageIds: body.messageIds,
      replayed: body.replayed,
      ...(body.batchId ? { batchId: body.batchId } : {}),
      via: "service",
    };
  }

  // The spec's rule: only in a local environment, and only when the service is unconfigured or answers
  // 503, WhatsApp goes straight to the gateway. Anywhere else the caller gets NotifyUnavailable.
  private async withWhatsAppFallback(
    viaService: () => Promise<SendResult>,
    recipients: { to: string; variables?: Record<string, string> }[],
    message: string,
  ): Promise<SendResult> {
    try {
      return await viaService();
    } catch (err) {
      const fallback = this.options.whatsappFallback;
      const eligible = err instanceof NotifyUnavailable && (err.status === undefined || err.status === 503);
      if (!eligible || this.options.environment !== "local" || !fallback) {
        throw err;
      }
      try {
        return await sendDirect(
          fallback,
          this.options.fetch ?? ((i, init) => fetch(i, init)),
          recipients,
          message,
        );
      } catch (fallbackErr) {
        throw new NotifyUnavailable(
          "notification service unavailable and the direct WhatsApp fallback failed",
          undefined,
          undefined,
          {
            cause: fallbackErr,
          },
        );
      }
    }
  }

  private async request(
    method: string,
    path: string,
    body?: unknown,
    idempotencyKey?: string,
  ): Promise<Response> {
    const { binding, internalKey } = this.options;
    if (!binding) {
      throw new NotifyUnavailable("notification service binding is not configured");
    }
    const headers: Record<string, string> = { "x-service-internal-key": internalKey };
    if (body !== undefined) {
      headers["content-type"] = "application/json";
    }
    if (idempotencyKey) {
      headers["idempotency-key"] = idempotencyKey;
    }
    // One id finds the message's whole path: this request, the notify Worker, its queue, the provider.
    const requestId = this.options.requestId ?? currentRequestId();
    if (requestId) {
      headers["x-request-id"] = requestId;
    }
    let response: Response;
    try {
      response = await binding.fetch(`${BASE}${path}`, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch (err) {
      throw new NotifyUnavailable("notification service unreachable", undefined, undefined, { cause: err });
    }
    if (response.ok) {
      return response;
    }
    const problem = (await response.json().catch(() => undefined)) as NotifyProblem | undefined;
    const detail = problem?.detail ?? `notification service answered ${response.status}`;
    if (response.status >= 500) {
      throw new NotifyUnavailable(detail, response.status, problem);
    }
    throw new NotifyRequestError(detail, response.status, problem?.code ?? "notification_rejected", problem);
  }
}

export function createNotifyClient(options: NotifyClientOptions): NotifyClient {
  return new NotifyClient(options);
}
