import { z } from "zod";
import { attemptOutcomes, channels, messageStatuses, platforms } from "./db/schema";
import { normalizeMsisdn } from "./phone";
import { decodeWebToken } from "./providers/push/webSubscription";

export const IdempotencyKey = z.string().min(1).max(200);

export const EmailAddress = z.email().max(320);

const HeaderName = z
  .string()
  .regex(/^[A-Za-z0-9-]{1,64}$/)
  // The provider and mimetext own these; letting callers set them would allow spoofing or broken MIME.
  .refine(
    (name) =>
      ![
        "from",
        "to",
        "cc",
        "bcc",
        "subject",
        "reply-to",
        "sender",
        "content-type",
        "mime-version",
        "message-id",
        "content-transfer-encoding",
        "date",
        "return-path",
      ].includes(name.toLowerCase()),
    "header is set by the service",
  );

const HeaderValue = z
  .string()
  .max(998)
  .regex(/^[^\r\n]*$/, "header values must be one line");

const EmailReference = z
  .string()
  .min(1)
  .max(200)
  .describe("What the email is about (e.g. support-ticket:<id>): GET /v1/fanout/summary counts its delivery");

export const SendEmailBody = z.object({
  template: z.string().regex(/^[A-Z0-9_]{2,64}$/),
  to: z.union([EmailAddress, z.array(EmailAddress).min(1).max(50)]),
  data: z.record(z.string(), z.unknown()).default({}),
  locale: z
    .string()
    .regex(/^[a-z]{2}(-[A-Z]{2})?$/)
    .optional(),
  replyTo: EmailAddress.optional(),
  reference: EmailReference.optional(),
  idempotencyKey: IdempotencyKey.optional(),
});

export const RawEmailBody = z
  .object({
    to: z.union([EmailAddress, z.array(EmailAddress).min(1).max(50)]),
    subject: z
      .string()
      .min(1)
      .max(300)
      .regex(/^[^\r\n]*$/, "subject must be one line"),
    html: z.string().min(1).max(500_000).optional(),
    text: z.string().min(1).max(500_000).optional(),
    replyTo: EmailAddress.optional(),
    headers: z.record(HeaderName, HeaderValue).optional(),
    reference: EmailReference.optional(),
    idempotencyKey: IdempotencyKey.optional(),
  })
  .refine((b) => b.html !== undefined || b.text !== undefined, {
    message: "html or text is required",
    path: ["html"],
  });

export const PushData = z
  .object({ screen: z.string().min(1).max(64), id: z.string().min(1).max(128) })
  .catchall(z.string().max(1024));

export const SendPushBody = z
  .object({
    userIds: z.array(z.string().min(1).max(128)).min(1).max(1000).optional(),
    tokens: z.array(z.string().min(1).max(4096)).min(1).max(1000).optional(),
    tenant: z.string().min(1).max(128).optional(),
    title: z.string().min(1).max(200),
    body: z.string().min(1).max(2000),
    data: PushData,
    idempotencyKey: IdempotencyKey.optional(),
  })
  .refine((b) => (b.userIds === undefined) !== (b.tokens === undefined), {
    message: "give exactly one of userIds or tokens",
    path: ["userIds"],
  });

// Validated here, normalized in the service: a transform would hide the input type from /openapi.json.
export const PhoneNumber = z
  .string()
  .min(6)
  .max(32)
  .refine((value) => normalizeMsisdn(value) !== null, "not a valid phone number");

export const WhatsAppSendBody = z.object({
  to: PhoneNumber,
  message: z.string().min(1).max(4096),
  idempotencyKey: IdempotencyKey.optional(),
});

export const WHATSAPP_BLAST_MAX = 1000;

export const WhatsAppBlastBody = z.object({
  recipients: z
    .array(
      z.object({
        to: PhoneNumber,
        variables: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string().max(1024)).optional(),
      }),
    )
    .min(1)
    .max(WHATSAPP_BLAST_MAX),
  message: z.string().min(1).max(4096),
  idempotencyKey: IdempotencyKey.optional(),
});

export const SendAccepted = z.object({
  messageIds: z.array(z.string()),
  batchId: z.string().optional(),
  replayed: z.boolean(),
});

export const TemplateCode = z.string().regex(/^[A-Z0-9_]{2,64}$/);
export const Locale = z.string().regex(/^[a-z]{2}(-[A-Z]{2})?$/);

export const Template = z.object({
  code: z.string(),
  locale: z.string(),
  name: z.string(),
  description: z.string(),
  subject: z.string(),
  html: z.string(),
  text: z.string(),
  variables: z.array(z.string()),
  sampleData: z.record(z.string(), z.unknown()),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const TemplateSummary = Template.omit({ html: true, text: true, sampleData: true });

export const PutTemplateBody = z.object({
  locale: Locale.optional(),
  name: z.string().min(1).max(200),
  description: z.string().max(1000).optional(),
  subject: z.string().min(1).max(300),
  html: z.string().min(1).max(500_000),
  text: z.string().min(1).max(500_000),
  variables: z
    .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_.]*$/))
    .max(100)
    .optional(),
  sampleData: z.record(z.string(), z.unknown()).optional(),
});

export const PreviewBody = z.object({
  locale: Locale.optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});

export const Rendered = z.object({ subject: z.string(), html: z.string(), text: z.string() });

export const RegisterDeviceBody = z
  .object({
    userId: z.string().min(1).max(128),
    tenant: z.string().min(1).max(128),
    platform: z.enum(platforms),
    token: z.string().min(1).max(4096),
  })
  .refine((d) => d.platform !== "web" || decodeWebToken(d.token) !== null, {
    path: ["token"],
    message: "a web device's token is base64url of '<https endpoint> <p256dh> <auth>'",
  });

export const Device = z.object({
  token: z.string(),
  userId: z.string(),
  tenant: z.string(),
  platform: z.enum(platforms),
  active: z.boolean(),
  deactivatedAt: z.string().nullable(),
  deactivationReason: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const MessageSummary = z.object({
  id: z.string(),
  channel: z.enum(channels),
  status: z.enum(messageStatuses),
  recipient: z.string(),
  template: z.string().nullable(),
  subject: z.string().nullable(),
  batchId: z.string().nullable(),
  reference: z
    .string()
    .nullable()
    .describe("What the message is about, as the caller named it (`<tenant>:<what>:<id>`)"),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  providerMessageId: z.string().nullable(),
  notBefore: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  sentAt: z.string().nullable(),
});

export const Attempt = z.object({
  attempt: z.number().int(),
  startedAt: z.string(),
  finishedAt: z.string(),
  outcome: z.enum(attemptOutcomes),
  providerStatus: z.number().int().nullable(),
  providerResponse: z.string().nullable(),
  error: z.string().nullable(),
});

export const MessageDetail = MessageSummary.extend({
  payload: z.record(z.string(), z.unknown()),
  attemptLog: z.array(Attempt),
});

const Day = z.iso.date();

export const ListMessagesQuery = z.object({
  status: z.enum(messageStatuses).optional(),
  channel: z.enum(channels).optional(),
  recipient: z.string().min(1).max(4096).optional(),
  batchId: z.string().min(1).max(64).optional(),
  tenant: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .describe("Messages whose reference begins with `<tenant>:` (the main API names them so)"),
  from: Day.optional(),
  to: Day.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().min(1).max(64).optional(),
});

export const Page = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() });

const ClockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "use HH:MM (24-hour)");

export const UserIdParam = z.object({ userId: z.string().min(1).max(128) });

export const PreferencesBody = z.object({
  push: z.boolean(),
  whatsapp: z.boolean(),
  email: z.boolean(),
  quietHours: z.object({ start: ClockTime, end: ClockTime }),
});

export const FanoutBody = z
  .object({
    reference: z.string().min(1).max(200),
    tenant: z.string().min(1).max(128),
    channel: z.enum(channels),
    urgent: z.boolean().default(false),
    recipients: z
      .array(z.object({ userId: z.string().min(1).max(128), address: z.string().min(1).max(320).optional() }))
      .min(1)
      .max(1000),
    push: z
      .object({ title: z.string().min(1).max(200), body: z.string().min(1).max(2000), data: PushData })
      .optional(),
    whatsapp: z.object({ message: z.string().min(1).max(4096) }).optional(),
    email: z
      .object({
        subject: z
          .string()
          .min(1)
          .max(300)
          .regex(/^[^\r\n]*$/, "subject must be one line"),
        html: z.string().min(1).max(500_000).optional(),
        text: z.string().min(1).max(500_000),
      })
      .optional(),
    idempotencyKey: IdempotencyKey.optional(),
  })
  .refine((b) => b[b.channel] !== undefined, {
    message: "give the content of the channel sent",
    path: ["channel"],
  });

const ChannelSummary = z.object({
  total: z.number().int(),
  queued: z.number().int(),
  scheduled: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
  skippedReasons: z.record(z.string(), z.number().int()),
});

export const DeliverySummary = z.object({
  reference: z.string(),
  channels: z.object({ push: ChannelSummary, whatsapp: ChannelSummary, email: ChannelSummary }),
});

export const SummaryQuery = z.object({ reference: z.string().min(1).max(200) });
