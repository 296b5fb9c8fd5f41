import { z } from "zod";
import { Paragraph } from "../../core/schemas";

/** Issue 17: at most 20 turns and 8,000 characters in all; the last turn is the user's. */
export const MAX_TURNS = 20;
export const MAX_CHARS = 8_000;

const Turn = z.object({
  // The client never speaks as `system` (or `tool`): the enum refuses it with a 400.
  role: z.enum(["user", "assistant"]),
  content: z.string().min(1).max(MAX_CHARS),
});

export const ChatInput = z
  .object({ messages: z.array(Turn).min(1).max(MAX_TURNS) })
  .superRefine((value, ctx) => {
    const total = value.messages.reduce((n, m) => n + m.content.length, 0);
    if (total > MAX_CHARS) {
      ctx.addIssue({
        code: "custom",
        path: ["messages"],
        message: `at most ${MAX_CHARS} characters in all turns together`,
      });
    }
    if (value.messages.at(-1)?.role !== "user") {
      ctx.addIssue({ code: "custom", path: ["messages"], message: "the last turn must be the user's" });
    }
  });
export type ChatInput = z.infer<typeof ChatInput>;
export type Turn = z.infer<typeof Turn>;

export const Source = z.object({
  kind: z.enum(["tagihan", "surat", "jenis_surat", "pengaduan", "tamu", "musyawarah", "info_rt"]),
  id: z.string(),
});
export type Source = z.infer<typeof Source>;

export const ChatReply = z.object({ reply: z.string(), sources: z.array(Source) }).openapi("AssistantReply");

export const AssistantStatus = z
  .object({
    available: z.boolean(),
    mode: z.enum(["llm", "builtin"]),
    model: z.string().optional(),
  })
  .openapi("AssistantStatus");

export const InfoRtInput = z
  .object({ rules: Paragraph(4_000).optional(), agenda: Paragraph(4_000).optional() })
  .refine((v) => v.rules !== undefined || v.agenda !== undefined, { message: "Give rules or agenda" });
export type InfoRtInput = z.infer<typeof InfoRtInput>;

export const InfoRt = z
  .object({ rules: z.string(), agenda: z.string(), updatedAt: z.string().nullable() })
  .openapi("AssistantInfoRt");
