import { z } from "zod";
import { ListQuery } from "../../core/db/paging";
import { Block, Line, Paragraph } from "../../core/schemas";
import { CONTENT_STATUSES } from "./tables";

const Status = z.enum(CONTENT_STATUSES);
const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "YYYY-MM-DD");
/** Markdown, up to 20,000 characters; rendered to sanitised HTML on the server. */
const MarkdownBody = Paragraph(20_000);

// ---- berita -------------------------------------------------------------------------------------

const FileId = z.string().min(1).max(64);

export const CreateBeritaInput = z.object({
  title: Line(200, 3),
  body: MarkdownBody,
  /** An image uploaded first through POST /api/files with purpose `sampul`. */
  coverFileId: FileId.optional(),
  status: Status.default("draft"),
});
export type CreateBeritaInput = z.infer<typeof CreateBeritaInput>;

export const UpdateBeritaInput = z
  .object({
    title: Line(200, 3).optional(),
    body: MarkdownBody.optional(),
    /** null removes the cover. */
    coverFileId: FileId.nullable().optional(),
    status: Status.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), {
    message: "nothing to change",
    path: ["title"],
  });
export type UpdateBeritaInput = z.infer<typeof UpdateBeritaInput>;

export const BeritaListQuery = ListQuery.extend({
  /** Staff only: their drafts, or everything; residents always see published news. */
  status: Status.optional(),
  from: Day.optional(),
  to: Day.optional(),
});
export type BeritaListQuery = z.infer<typeof BeritaListQuery>;

export const Berita = z
  .object({
    id: z.string(),
    title: z.string(),
    body: z.string().describe("Markdown as written"),
    bodyHtml: z.string().describe("Sanitised HTML: no raw HTML, no scripts, only http(s)/mailto/tel links"),
    cover: z.object({ id: z.string(), url: z.string() }).nullable(),
    status: Status,
    version: z.number().int(),
    publishedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Berita");

// ---- pengumuman ---------------------------------------------------------------------------------

export const ChannelsInput = z.object({
  push: z.literal(true).default(true).describe("Push always goes to registered devices"),
  whatsapp: z.boolean().default(false),
  email: z.boolean().default(false),
});

export const AudienceInput = z.discriminatedUnion("scope", [
  z.object({ scope: z.literal("semua") }),
  z.object({ scope: z.literal("blok"), blocks: z.array(Block).min(1).max(50) }),
]);
export type AudienceInput = z.infer<typeof AudienceInput>;

export const CreatePengumumanInput = z.object({
  title: Line(200, 3),
  body: MarkdownBody,
  urgent: z.boolean().default(false),
  channels: ChannelsInput.default({ push: true, whatsapp: false, email: false }),
  audience: AudienceInput.default({ scope: "semua" }),
  status: Status.default("terbit"),
});
export type CreatePengumumanInput = z.infer<typeof CreatePengumumanInput>;

export const UpdatePengumumanInput = z
  .object({
    title: Line(200, 3).optional(),
    body: MarkdownBody.optional(),
    urgent: z.boolean().optional(),
    channels: ChannelsInput.optional(),
    audience: AudienceInput.optional(),
    status: Status.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), {
    message: "nothing to change",
    path: ["title"],
  });
export type UpdatePengumumanInput = z.infer<typeof UpdatePengumumanInput>;

export const PengumumanListQuery = BeritaListQuery;
export type PengumumanListQuery = BeritaListQuery;

export const Pengumuman = z
  .object({
    id: z.string(),
    title: z.string(),
    body: z.string(),
    bodyHtml: z.string(),
    urgent: z.boolean(),
    channels: z.object({ push: z.boolean(), whatsapp: z.boolean(), email: z.boolean() }),
    audience: z.object({ scope: z.enum(["semua", "blok"]), blocks: z.array(z.string()).optional() }),
    status: Status,
    version: z.number().int(),
    /** True while the fan-out of the current version is owed (the notification service was down). */
    deliveryPending: z.boolean(),
    publishedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Pengumuman");

const ChannelDelivery = z.object({
  total: z.number().int(),
  queued: z.number().int(),
  scheduled: z
    .number()
    .int()
    .describe("Of the queued: waiting for quiet hours to end or for WhatsApp pacing"),
  sent: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
  skippedReasons: z
    .record(z.string(), z.number().int())
    .describe("opted_out, no_device, no_address, invalid_address, channel_unconfigured"),
});

export const DeliverySummary = z
  .object({
    id: z.string(),
    version: z.number().int().nullable().describe("The version whose fan-out is summarised (null: none yet)"),
    deliveryPending: z.boolean(),
    channels: z.object({ push: ChannelDelivery, whatsapp: ChannelDelivery, email: ChannelDelivery }),
  })
  .openapi("PengumumanDelivery");

// ---- agenda -------------------------------------------------------------------------------------

const Instant = z.iso.datetime({ offset: true });

export const CreateAgendaInput = z
  .object({
    title: Line(200, 3),
    description: Paragraph(5000, 0).default(""),
    place: Line(200, 2),
    start: Instant,
    end: Instant.describe("After start"),
  })
  .refine((v) => Date.parse(v.end) > Date.parse(v.start), {
    message: "end must be after start",
    path: ["end"],
  });
export type CreateAgendaInput = z.infer<typeof CreateAgendaInput>;

export const UpdateAgendaInput = z
  .object({
    title: Line(200, 3).optional(),
    description: Paragraph(5000, 0).optional(),
    place: Line(200, 2).optional(),
    start: Instant.optional(),
    end: Instant.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), {
    message: "nothing to change",
    path: ["title"],
  });
export type UpdateAgendaInput = z.infer<typeof UpdateAgendaInput>;

export const AgendaListQuery = ListQuery.extend({
  /** Jakarta days on the start; without them the list is what has not ended yet, soonest first. */
  from: Day.optional(),
  to: Day.optional(),
});
export type AgendaListQuery = z.infer<typeof AgendaListQuery>;

export const Agenda = z
  .object({
    id: z.string(),
    title: z.string(),
    description: z.string(),
    place: z.string(),
    start: z.string(),
    end: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Agenda");

// ---- watch --------------------------------------------------------------------------------------

export const WatchSummary = z
  .object({
    dues: z.object({ total: z.number().int().describe("Rupiah"), count: z.number().int() }),
    news: z.array(z.object({ id: z.string(), title: z.string(), publishedAt: z.string().nullable() })).max(3),
    campaigns: z.array(
      z.object({
        id: z.string(),
        title: z.string(),
        collected: z.number().int(),
        target: z.number().int().nullable(),
      }),
    ),
  })
  .openapi("WatchSummary");
export type WatchSummary = z.infer<typeof WatchSummary>;
