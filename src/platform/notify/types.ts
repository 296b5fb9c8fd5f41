// Request and response shapes of the notification service's /v1 API, as the main API uses them.

// Structural, so a `Fetcher` service binding, `exports.default` in tests, or any fetch-like object fits.
export interface NotifyBinding {
  fetch(input: Request | string, init?: RequestInit): Promise<Response>;
}

export interface WhatsAppFallback {
  // A Fonnte-shaped gateway: POST url, Authorization: token, form fields target, message, countryCode.
  url: string;
  token: string;
}

export interface NotifyClientOptions {
  binding: NotifyBinding | undefined;
  internalKey: string;
  // "local" enables the direct WhatsApp fallback; any other value never bypasses the service.
  environment: string;
  whatsappFallback?: WhatsAppFallback;
  /** Sent as X-Request-Id; defaults to the id of the request in progress (core/http/middleware.ts). */
  requestId?: string;
  // For the fallback's outbound call; defaults to the global fetch.
  fetch?: (input: Request | string, init?: RequestInit) => Promise<Response>;
}

export interface SendResult {
  messageIds: string[];
  // True when the service recognised the idempotency key and sent nothing new.
  replayed: boolean;
  batchId?: string;
  // "direct" only for the local WhatsApp fallback, whose ids are not in the service's delivery log.
  via: "service" | "direct";
}

export interface SendEmailInput {
  template: string;
  to: string | string[];
  data: Record<string, unknown>;
  locale?: string;
  replyTo?: string;
  /** What the email is about: `deliverySummary(reference)` then tells whether it was delivered. */
  reference?: string;
  idempotencyKey?: string;
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

export interface PushData {
  screen: string;
  id: string;
  [key: string]: string;
}

export type SendPushInput = {
  tenant?: string;
  title: string;
  body: string;
  data: PushData;
  idempotencyKey?: string;
} & ({ userIds: string[]; tokens?: never } | { tokens: string[]; userIds?: never });

export interface SendWhatsAppInput {
  to: string;
  message: string;
  idempotencyKey?: string;
}

export interface BlastWhatsAppInput {
  recipients: { to: string; variables?: Record<string, string> }[];
  message: string;
  idempotencyKey?: string;
}

export interface RegisterDeviceInput {
  userId: string;
  tenant: string;
  platform: "ios" | "android" | "web";
  token: string;
}

export interface Device {
  token: string;
  userId: string;
  tenant: string;
  platform: "ios" | "android" | "web";
  active: boolean;
  deactivatedAt: string | null;
  deactivationReason: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface DeliveryFailure {
  messageId: string;
  status: "failed" | "dead";
  attempts: number;
  error: string | null;
  at: string;
}

/** The notification service's own figures (GET /v1/stats). */
export interface DeliveryStats {
  backlog: { queued: number; sending: number; retrying: number; total: number; oldestAt: string | null };
  deadLetters: number;
  failed: number;
  lastFailures: { email: DeliveryFailure[]; push: DeliveryFailure[]; whatsapp: DeliveryFailure[] };
  /** Operator alerts of the last 24 hours, newest first (workers/notify services/alerts.ts). */
  alerts?: DeliveryAlert[];
}

/** One row of the service's delivery log (workers/notify `MessageSummary`). */
export interface DeliveryMessage {
  id: string;
  channel: "email" | "push" | "whatsapp";
  status: "queued" | "sending" | "sent" | "retrying" | "failed" | "dead" | "skipped";
  recipient: string;
  template: string | null;
  subject: string | null;
  batchId: string | null;
  reference: string | null;
  attempts: number;
  lastError: string | null;
  providerMessageId: string | null;
  notBefore: string | null;
  createdAt: string;
  updatedAt: string;
  sentAt: string | null;
}

/** One delivery attempt of a message, as the service logged it. */
export interface DeliveryAttempt {
  attempt: number;
  startedAt: string;
  finishedAt: string;
  outcome: "sent" | "retrying" | "failed" | "dead" | "unknown" | "claim_lost";
  providerStatus: number | null;
  providerResponse: string | null;
  error: string | null;
}

/** `GET /v1/messages` filters; `from`/`to` are Asia/Jakarta calendar days, inclusive. */
export interface DeliveryLogQuery {
  status?: DeliveryMessage["status"];
  channel?: DeliveryMessage["channel"];
  tenant?: string;
  from?: string;
  to?: string;
  limit: number;
  cursor?: string;
}

/** Delivery trouble counted per cause and UTC hour; the operators are emailed once per cause per hour. */
export interface DeliveryAlert {
  cause: string;
  hour: string;
  channel: "email" | "push" | "whatsapp";
  provider: string;
  kind: string;
  status: "retrying" | "failed" | "dead";
  error: string;
  count: number;
  firstAt: string;
  lastAt: string;
  lastMessageId: string;
  emailed: boolean;
}

export interface NotificationPreferences {
  push: boolean;
  whatsapp: boolean;
  email: boolean;
  /** Asia/Jakarta wall clock, "HH:MM"; start equal to end means no quiet hours. */
  quietHours: { start: string; end: string };
}

export type FanoutChannel = "push" | "whatsapp" | "email";

export interface FanoutInput {
  /** What is being told (`<tenant>:pengumuman:<id>`): the delivery summary is read by it. */
  reference: string;
  tenant: string;
  channel: FanoutChannel;
  urgent?: boolean;
  /** At most 1,000; `address` is the WhatsApp number or email for those channels. */
  recipients: { userId: string; address?: string }[];
  push?: { title: string; body: string; data: PushData };
  whatsapp?: { message: string };
  email?: { subject: string; html?: string; text: string };
  /** Name the message version and the channel: a retry then sends nothing twice. */
  idempotencyKey: string;
}

export interface ChannelDeliverySummary {
  total: number;
  queued: number;
  scheduled: number;
  sent: number;
  failed: number;
  skipped: number;
  skippedReasons: Record<string, number>;
}

export interface DeliverySummary {
  reference: string;
  channels: Record<FanoutChannel, ChannelDeliverySummary>;
}
