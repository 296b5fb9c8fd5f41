import { z } from "zod";
import { ListQuery } from "../../core/db/paging";

const Failure = z.object({
  messageId: z.string(),
  status: z.enum(["failed", "dead"]),
  attempts: z.number().int(),
  error: z.string().nullable(),
  at: z.string(),
});

const DeliveryAlert = z.object({
  cause: z.string().describe("channel|provider|template (or raw)|the error with ids and numbers taken out"),
  hour: z.string().describe("UTC hour counted, YYYY-MM-DDTHH"),
  channel: z.enum(["email", "push", "whatsapp"]),
  provider: z.string(),
  kind: z.string().describe("The template code, or raw"),
  status: z.enum(["retrying", "failed", "dead"]),
  error: z.string(),
  count: z.number().int(),
  firstAt: z.string(),
  lastAt: z.string(),
  lastMessageId: z.string(),
  emailed: z.boolean().describe("Whether the operators' inbox was emailed about this cause this hour"),
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
    alerts: z
      .array(DeliveryAlert)
      .optional()
      .describe(
        "Delivery alerts of the last 24 hours, newest first: a message still retrying after its second attempt, refused, or out of retries, counted per cause and hour; the operators' inbox is emailed once per cause per hour. One in the last hour makes the report degraded",
      ),
  }),
  tenantsWithoutAdmin: z
    .array(z.object({ id: z.string(), slug: z.string(), name: z.string(), status: z.string() }))
    .describe(
      "Communities not closed whose memberships hold no admin (an invited admin counts once the membership exists)",
    ),
  tenantCacheTtlSeconds: z.number(),
});

export const ArchiveView = z
  .object({
    id: z.string(),
    kind: z.enum(["export", "import"]),
    tenantId: z.string(),
    tenantSlug: z.string(),
    status: z.enum(["queued", "running", "ready", "failed", "expired"]),
    requestedAs: z.enum(["admin", "operator"]),
    bytes: z.number().int().nullable(),
    sha256: z.string().nullable().describe("SHA-256 of the whole ZIP, once ready"),
    summary: z
      .object({ tables: z.number().int(), rows: z.number().int(), files: z.number().int() })
      .nullable(),
    error: z.string().nullable(),
    attempts: z.number().int(),
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
    expiresAt: z.string().nullable().describe("The download is refused (410) from this instant"),
    downloadUrl: z.string().nullable(),
  })
  .openapi("TenantArchive");

export const ArchiveRequested = z.object({
  archive: ArchiveView,
  created: z.boolean().describe("false when an export already queued or running was answered instead"),
});

export const ArchiveList = z.object({ items: z.array(ArchiveView), nextCursor: z.string().nullable() });

export const ImportQuery = z.object({
  archiveId: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe("Restore from an export this platform holds; without it the body is the ZIP"),
});

export const ImportResult = z.object({
  archive: ArchiveView,
  report: z.object({
    schemaVersion: z.string(),
    tables: z.record(z.string(), z.number().int()),
    rows: z.number().int(),
    files: z.number().int(),
    skippedFiles: z.number().int().describe("Support-ticket files: platform records, not restored"),
    bytes: z.number().int(),
  }),
});

const Day = z.iso.date().describe("YYYY-MM-DD, a real calendar day");
const DeliveryStatus = z
  .enum(["queued", "sending", "sent", "retrying", "failed", "dead", "skipped"])
  .describe(
    "`dead` is a parked message: retries exhausted, or an outcome nobody knows; an operator may retry it",
  );

/** The notification service's delivery log as operators filter it (issue 47 item 4). */
export const DeliveryListQuery = ListQuery.extend({
  status: DeliveryStatus.optional(),
  channel: z.enum(["email", "push", "whatsapp"]).optional(),
  tenantId: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe("A community's id: the messages the main API sent about it (404 for an unknown community)"),
  from: Day.optional().describe("Calendar day in Asia/Jakarta, inclusive"),
  to: Day.optional().describe("Calendar day in Asia/Jakarta, inclusive"),
});

export const DeliveryView = z
  .object({
    id: z.string(),
    channel: z.enum(["email", "push", "whatsapp"]),
    status: DeliveryStatus,
    recipient: z.string().describe("Masked: `b***@example.id`, `6281******890`, a token's first characters"),
    template: z.string().nullable(),
    subject: z.string().nullable(),
    reference: z.string().nullable().describe("What the message was about: `<tenant id>:<what>:<id>`"),
    tenantId: z.string().nullable().describe("The tenant part of the reference, when there is one"),
    attempts: z.number().int(),
    lastError: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    sentAt: z.string().nullable(),
    retryable: z.boolean().describe("failed or dead (parked): `POST …/retry` queues it again"),
  })
  .openapi("NotificationDelivery");

export const DeliveryList = z.object({ items: z.array(DeliveryView), nextCursor: z.string().nullable() });

export const DeliveryDetail = DeliveryView.extend({
  attemptLog: z.array(
    z.object({
      attempt: z.number().int(),
      startedAt: z.string(),
      finishedAt: z.string(),
      outcome: z.enum(["sent", "retrying", "failed", "dead", "unknown", "claim_lost"]),
      providerStatus: z.number().int().nullable(),
      providerResponse: z.string().nullable(),
      error: z.string().nullable(),
    }),
  ),
}).openapi("NotificationDeliveryDetail");

export const ErasureView = z
  .object({
    id: z.string(),
    userId: z.string().describe("The account whose data was erased (operators only ever see this link)"),
    reference: z.string().describe("The anonymous reference that stands for the person in the tenant"),
    erasedAt: z.string(),
    operatorId: z.string().nullable(),
  })
  .openapi("PersonalDataErasure");

export const ErasureList = z.object({ items: z.array(ErasureView), nextCursor: z.string().nullable() });
