import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const channels = ["email", "push", "whatsapp"] as const;
export type Channel = (typeof channels)[number];

// `skipped`: written by a fan-out for a recipient it did not send to (opted out, no device, no address);
// final from the start and never queued, so the delivery summary can say who was left out and why.
export const messageStatuses = [
  "queued",
  "sending",
  "sent",
  "retrying",
  "failed",
  "dead",
  "skipped",
] as const;
export type MessageStatus = (typeof messageStatuses)[number];

export const attemptOutcomes = ["sent", "retrying", "failed", "dead", "unknown", "claim_lost"] as const;
export type AttemptOutcome = (typeof attemptOutcomes)[number];

// "web": a browser's push subscription (providers/push/webSubscription.ts), delivered by Web Push.
export const platforms = ["ios", "android", "web"] as const;
export type Platform = (typeof platforms)[number];

export const templates = sqliteTable(
  "templates",
  {
    code: text("code").notNull(),
    locale: text("locale").notNull().default("id"),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    subject: text("subject").notNull(),
    html: text("html").notNull(),
    text: text("text").notNull(),
    // JSON array of variable names a send must provide.
    variables: text("variables").notNull().default("[]"),
    // JSON object used by the preview route.
    sampleData: text("sample_data").notNull().default("{}"),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.code, t.locale] })],
);

export const messages = sqliteTable(
  "messages",
  {
    id: text("id").primaryKey(),
    channel: text("channel", { enum: channels }).notNull(),
    status: text("status", { enum: messageStatuses }).notNull(),
    recipient: text("recipient").notNull(),
    template: text("template"),
    subject: text("subject"),
    // JSON: everything the consumer needs to deliver, so a queue message only carries the id.
    payload: text("payload").notNull(),
    batchId: text("batch_id"),
    // What the message is about, e.g. `rt-01:pengumuman:<id>`: the key of the delivery summary of a fan-out.
    reference: text("reference"),
    // The user a fan-out addressed (push recipients are device tokens, skipped rows have no address).
    userId: text("user_id"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    providerMessageId: text("provider_message_id"),
    // Earliest delivery time (blast pacing); ISO 8601.
    notBefore: text("not_before"),
    // A consumer holding the message in `sending` owns it until this time.
    leaseUntil: text("lease_until"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    sentAt: text("sent_at"),
  },
  (t) => [
    index("messages_status_idx").on(t.status, t.id),
    index("messages_channel_idx").on(t.channel, t.id),
    index("messages_recipient_idx").on(t.recipient, t.id),
    index("messages_created_idx").on(t.createdAt),
    index("messages_batch_idx").on(t.batchId),
    index("messages_reference_idx").on(t.reference, t.channel, t.status),
  ],
);

export const messageAttempts = sqliteTable(
  "message_attempts",
  {
    id: text("id").primaryKey(),
    messageId: text("message_id").notNull(),
    attempt: integer("attempt").notNull(),
    startedAt: text("started_at").notNull(),
    finishedAt: text("finished_at").notNull(),
    // `unknown`: the call timed out on a provider without an idempotency key, so the message was parked
    // (dead) rather than sent again; `claim_lost`: this consumer's claim was gone by the finish, so it
    // recorded what it saw here and left the message to the consumer that holds it (ADR 0031).
    outcome: text("outcome", { enum: attemptOutcomes }).notNull(),
    providerStatus: integer("provider_status"),
    providerResponse: text("provider_response"),
    // The provider's id for an accepted send, so a consumer that lost its claim leaves it for the holder.
    providerMessageId: text("provider_message_id"),
    error: text("error"),
  },
  (t) => [index("message_attempts_message_idx").on(t.messageId, t.attempt)],
);

export const idempotencyKeys = sqliteTable("idempotency_keys", {
  // `<operation>:<caller key>` so one key can be reused across operations.
  scopeKey: text("scope_key").primaryKey(),
  requestHash: text("request_hash").notNull(),
  messageIds: text("message_ids").notNull(),
  createdAt: text("created_at").notNull(),
});

export const devices = sqliteTable(
  "devices",
  {
    token: text("token").primaryKey(),
    userId: text("user_id").notNull(),
    tenant: text("tenant").notNull(),
    platform: text("platform", { enum: platforms }).notNull(),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    deactivatedAt: text("deactivated_at"),
    deactivationReason: text("deactivation_reason"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("devices_user_idx").on(t.userId, t.active)],
);

export const pacing = sqliteTable("pacing", {
  channel: text("channel").primaryKey(),
  // Epoch milliseconds of the next free send slot.
  nextSlotAt: integer("next_slot_at").notNull(),
});

export const SKIP_REASONS = [
  "opted_out",
  "no_device",
  "no_address",
  "invalid_address",
  "channel_unconfigured",
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/**
 * A user's notification preferences, across tenants (one phone, one person): which channels they accept
 * and their quiet hours in Asia/Jakarta ("HH:MM"; start equal to end means none). No row means the
 * defaults: every channel on, quiet from 21:00 to 07:00.
 */
export const preferences = sqliteTable("preferences", {
  userId: text("user_id").primaryKey(),
  push: integer("push", { mode: "boolean" }).notNull(),
  whatsapp: integer("whatsapp", { mode: "boolean" }).notNull(),
  email: integer("email", { mode: "boolean" }).notNull(),
  quietStart: text("quiet_start").notNull(),
  quietEnd: text("quiet_end").notNull(),
  updatedAt: text("updated_at").notNull(),
});

/**
 * Delivery trouble an operator must hear about (docs/adr/0039): a message still `retrying` after its
 * second attempt, or given up on (`failed`, `dead`). One row per cause and UTC hour: the primary key makes
 * "first of this cause this hour" an atomic fact of the insert, so exactly one consumer emails the
 * operators however many messages fail at once. The cause is the channel, provider, template (or `raw`)
 * and the error with its ids and numbers taken out.
 */
export const operatorAlerts = sqliteTable(
  "operator_alerts",
  {
    cause: text("cause").notNull(),
    // `YYYY-MM-DDTHH` (UTC) of the first occurrence counted in this row.
    hour: text("hour").notNull(),
    channel: text("channel", { enum: channels }).notNull(),
    provider: text("provider").notNull(),
    // The template code, or `raw` for a message sent without one.
    kind: text("kind").notNull(),
    // What the message was left as when the alert was raised: `retrying`, `failed` or `dead`.
    status: text("status").$type<"retrying" | "failed" | "dead">().notNull(),
    error: text("error").notNull(),
    count: integer("count").notNull().default(1),
    firstAt: text("first_at").notNull(),
    lastAt: text("last_at").notNull(),
    lastMessageId: text("last_message_id").notNull(),
    // The operator email about it; null when none was sent (no inbox configured, or the message that
    // failed was itself an alert email: those are shown in the health view only, never emailed).
    emailMessageId: text("email_message_id"),
  },
  (t) => [primaryKey({ columns: [t.cause, t.hour] }), index("operator_alerts_last_idx").on(t.lastAt)],
);
