import { z } from "zod";

const Failure = z.object({
  messageId: z.string(),
  status: z.enum(["failed", "dead"]),
  attempts: z.number().int(),
  error: z.string().nullable(),
  at: z.string(),
});

export const PlatformHealth = z.object({
  status: z.enum(["ok", "degraded"]),
  version: z.string(),
  platformDb: z.object({ answers: z.boolean(), ms: z.number() }),
  slots: z.object({
    total: z.number().int(),
    used: z.number().int(),
    free: z.number().int(),
    latestMigration: z.string().nullable().describe("The newest tenant migration this build bundles"),
    problems: z
      .number()
      .int()
      .describe("Slots not answering, or holding a tenant behind the latest migration"),
    items: z.array(
      z.object({
        slot: z.number().int(),
        binding: z.string(),
        tenant: z.object({ slug: z.string(), status: z.string() }).nullable(),
        answers: z.boolean(),
        ms: z.number(),
        migration: z.string().nullable(),
        behind: z
          .number()
          .int()
          .describe("Bundled migrations this slot lacks (a free slot is migrated when claimed)"),
        error: z.string().optional(),
      }),
    ),
  }),
  notify: z.object({
    answers: z.boolean(),
    ms: z.number(),
    backlog: z
      .object({
        queued: z.number().int(),
        sending: z.number().int(),
        retrying: z.number().int(),
        total: z.number().int(),
        oldestAt: z.string().nullable(),
      })
      .optional(),
    deadLetters: z.number().int().optional(),
    failed: z.number().int().optional(),
    lastFailures: z
      .object({ email: z.array(Failure), push: z.array(Failure), whatsapp: z.array(Failure) })
      .optional(),
  }),
  tenantCacheTtlSeconds: z.number(),
});
