import { z } from "zod";

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "YYYY-MM-DD");

export const AuditQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(64).optional(),
  /** Inclusive calendar days in Asia/Jakarta. */
  from: Day.optional(),
  to: Day.optional(),
  actor: z.string().min(1).max(64).optional(),
  action: z.string().min(1).max(64).optional(),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

export const PlatformAuditQuery = AuditQuery.extend({ tenant: z.string().min(1).max(64).optional() });
export type PlatformAuditQuery = z.infer<typeof PlatformAuditQuery>;

export const AuditEntry = z
  .object({
    id: z.string(),
    tenantId: z.string().nullable(),
    actorId: z.string().nullable(),
    actorName: z.string().nullable(),
    actorRole: z.string().nullable(),
    action: z.string(),
    targetType: z.string(),
    targetId: z.string().nullable(),
    ip: z.string().nullable(),
    requestId: z.string().nullable(),
    detail: z.record(z.string(), z.unknown()).nullable(),
    createdAt: z.string(),
  })
  .openapi("AuditEntry");
