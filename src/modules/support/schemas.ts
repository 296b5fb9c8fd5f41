import { z } from "zod";
import { ListQuery } from "../../core/db/paging";
import { binaryPart } from "../../core/http/openapi";
import { Line, Paragraph } from "../../core/schemas";

/** The support ticket resource keeps the spec's snake_case names throughout (ARCHITECTURE.md). */
export const TICKET_STATUSES = ["baru", "diproses", "selesai"] as const;
export const TicketStatus = z.enum(TICKET_STATUSES);
export type TicketStatus = z.infer<typeof TicketStatus>;

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "YYYY-MM-DD");
const AttachmentUrl = z
  .string()
  .trim()
  .min(1)
  .max(500)
  .describe("The `url` an image upload of this ticket answered; any other value is 400 `invalid_attachment`");

/**
 * A ticket's category is chosen from a closed list (spec: "chosen at creation"), published with its labels
 * at GET /api/support-tickets/categories. `kontak` is the contact form's, set by the server, never chosen.
 * The column stays text and only writes are checked: tickets opened before the list existed keep their
 * free-text category and still read.
 */
export const TICKET_CATEGORIES = [
  { code: "teknis", label: "Masalah teknis", label_en: "Technical problem", choosable: true },
  { code: "akun", label: "Akun dan akses", label_en: "Accounts and access", choosable: true },
  { code: "data", label: "Data dan impor", label_en: "Data and imports", choosable: true },
  { code: "tagihan", label: "Tagihan langganan", label_en: "Subscription billing", choosable: true },
  { code: "saran", label: "Saran fitur", label_en: "Feature suggestion", choosable: true },
  { code: "lainnya", label: "Lainnya", label_en: "Other", choosable: true },
  { code: "kontak", label: "Formulir kontak", label_en: "Contact form", choosable: false },
] as const;

/** The codes a community may choose when it opens a ticket. */
export const ChosenCategory = z.enum(["teknis", "akun", "data", "tagihan", "saran", "lainnya"]);
export type ChosenCategory = z.infer<typeof ChosenCategory>;

export const TicketCategoryList = z
  .object({
    items: z.array(
      z.object({
        code: z.string().describe("What a ticket's `category` holds"),
        label: z.string().describe("Indonesian label"),
        label_en: z.string().describe("English label"),
        choosable: z
          .boolean()
          .describe("Whether staff may choose it when opening a ticket (`kontak` is the contact form's)"),
      }),
    ),
  })
  .openapi("SupportTicketCategories");

const CategoryRead = z
  .string()
  .describe(
    "One of GET /api/support-tickets/categories; tickets opened before that list existed keep their free text",
  );

/**
 * What the document says of the three names the spec writes in snake_case (the rest of the resource
 * follows them; /openapi.json's info.description says the same).
 */
const specName = (what: string) =>
  `${what} Written \`snake_case\` as the specification names it: the support ticket resource keeps the ` +
  "spec's wire names (`reply_token`, `attachment_url`, `lampiran_url`) and so snake_case throughout.";
const UPLOAD_RULE = "the `url` an image upload of this ticket answered; any other value is 400";
const ATTACHMENT_URL = specName(`The ticket's first evidence image: ${UPLOAD_RULE} \`invalid_attachment\`.`);
const LAMPIRAN_URL = specName(`An image attached to this message: ${UPLOAD_RULE} \`invalid_input\`.`);
const REPLY_TOKEN = specName("The login-free reply credential of this ticket (shown once).");

export const CreateTicketInput = z.object({
  category: ChosenCategory.describe("A choosable code of GET /api/support-tickets/categories"),
  title: Line(200, 3),
  detail: Paragraph(5000, 3),
  attachment_url: AttachmentUrl.optional().describe(ATTACHMENT_URL),
});
export type CreateTicketInput = z.infer<typeof CreateTicketInput>;

export const ReplyInput = z.object({
  message: Paragraph(5000),
  lampiran_url: AttachmentUrl.optional().describe(LAMPIRAN_URL),
});
export type ReplyInput = z.infer<typeof ReplyInput>;

export const RespondInput = z
  .object({
    message: Paragraph(5000).optional(),
    status: TicketStatus.optional(),
    lampiran_url: AttachmentUrl.optional().describe(LAMPIRAN_URL),
  })
  .refine((v) => v.message !== undefined || v.status !== undefined, {
    message: "message or status is required",
    path: ["message"],
  })
  .refine((v) => v.lampiran_url === undefined || v.message !== undefined, {
    message: "an image goes with a message",
    path: ["lampiran_url"],
  });
export type RespondInput = z.infer<typeof RespondInput>;

/** The cursor is `{created_at}~{id}` of the last ticket shown (the list is ordered by creation time). */
export const TicketListQuery = ListQuery.extend({
  status: TicketStatus.optional(),
  from: Day.optional(),
  to: Day.optional(),
});
export type TicketListQuery = z.infer<typeof TicketListQuery>;

export const PlatformTicketListQuery = TicketListQuery.extend({
  tenant: z.string().trim().min(1).max(64).optional(),
});
export type PlatformTicketListQuery = z.infer<typeof PlatformTicketListQuery>;

export const UploadQuery = z.object({ kind: z.enum(["support-ticket"]) });

export const ReplyTokenParam = z.object({ reply_token: z.string().min(1).max(128).describe(REPLY_TOKEN) });
export const PublicFileParams = ReplyTokenParam.extend({ id: z.string().min(1).max(64) });

export const ContactInput = z.object({
  name: Line(120, 2),
  email: z
    .email()
    .max(254)
    .openapi({ pattern: z.regexes.email.source })
    .transform((v) => v.trim().toLowerCase()),
  phone: z
    .string()
    .trim()
    .regex(/^\+?[0-9 ()-]{6,20}$/, "a phone number")
    .optional(),
  subject: Line(200, 3),
  message: Paragraph(5000, 3),
  /** Honeypot: hidden in the form, so only bots fill it. */
  website: z.string().max(500).optional(),
  /** Cloudflare Turnstile response token; checked when the deployment has a Turnstile secret. */
  turnstileToken: z.string().max(4096).optional(),
});
export type ContactInput = z.infer<typeof ContactInput>;

export const InboundReplyInput = z.object({
  replyToken: z.string().min(1).max(128),
  messageId: z.string().trim().min(1).max(998),
  from: z.object({ address: z.email().max(320), name: z.string().max(200).optional() }),
  subject: z.string().max(998),
  text: z.string().max(100_000),
  attachments: z
    .array(
      z.object({
        key: z.string().min(1).max(1024),
        filename: z.string().max(255),
        contentType: z.string().max(100),
        size: z.number().int().min(0),
      }),
    )
    .max(20),
  receivedAt: z.iso.datetime({ offset: true }),
});
export type InboundReplyInput = z.infer<typeof InboundReplyInput>;

export const TicketMessage = z
  .object({
    id: z.string(),
    author: z.enum(["submitter", "operator"]),
    via: z.enum(["console", "public", "email"]),
    author_name: z.string(),
    message: z.string(),
    lampiran_url: z.string().nullable().describe(LAMPIRAN_URL),
    /** Every image of the message (an email may carry several); `lampiran_url` is the first. */
    lampiran_urls: z.array(z.string()),
    status_change: TicketStatus.nullable(),
    created_at: z.string(),
  })
  .openapi("SupportTicketMessage");

export const Ticket = z
  .object({
    id: z.string(),
    number: z.number().int(),
    category: CategoryRead,
    title: z.string(),
    detail: z.string(),
    status: TicketStatus,
    source: z.enum(["tenant", "homepage"]),
    /** `Tenant {slug}`, from the ticket itself; null for contact-form tickets. */
    tenant: z.string().nullable(),
    tenant_slug: z.string().nullable(),
    attachment_url: z.string().nullable().describe(ATTACHMENT_URL),
    submitter_name: z.string(),
    submitter_email: z.string().nullable(),
    submitter_phone: z.string().nullable(),
    notification_pending: z
      .boolean()
      .describe(
        "An email about this ticket is not yet known to be delivered (queued, being retried, or failed); false once the notification service reports every one sent",
      ),
    notification_failed: z
      .boolean()
      .describe(
        "An email about this ticket was given up on (refused, out of retries, or never handed over); the operators have been alerted",
      ),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("SupportTicket");

export const TicketWithThread = Ticket.extend({ messages: z.array(TicketMessage) }).openapi(
  "SupportTicketThread",
);

/** The creator's answer, the only one that carries the login-free `reply_token` (it is stored hashed). */
export const CreatedTicket = TicketWithThread.extend({
  reply_token: z.string().describe(REPLY_TOKEN),
}).openapi("SupportTicketCreated");

export const Summary = z.object({
  total: z.number().int(),
  baru: z.number().int(),
  diproses: z.number().int(),
  selesai: z.number().int(),
});

export const TicketList = z
  .object({ items: z.array(Ticket), nextCursor: z.string().nullable(), summary: Summary })
  .openapi("SupportTicketList");

/** What the login-free page sees: the thread, nothing about the submitter or the tenant. */
export const PublicThread = z
  .object({
    number: z.number().int(),
    category: CategoryRead,
    title: z.string(),
    detail: z.string(),
    status: TicketStatus,
    attachment_url: z.string().nullable().describe(ATTACHMENT_URL),
    created_at: z.string(),
    messages: z.array(TicketMessage.omit({ via: true })),
  })
  .openapi("SupportTicketPublicThread");

export const Upload = z.object({ url: z.string() }).openapi("SupportImageUpload");

export const ContactAccepted = z.object({ status: z.literal("diterima") }).openapi("ContactAccepted");

export const InboundAppended = z.object({ ticketId: z.string(), messageId: z.string() });
export const InboundDuplicate = z.object({ duplicate: z.literal(true) });

export const multipartImage = {
  content: {
    "multipart/form-data": {
      schema: z.object({ file: binaryPart("JPEG, PNG or WebP image, at most 5 MB") }),
    },
  },
};
