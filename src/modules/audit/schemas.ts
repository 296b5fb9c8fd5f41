import { z } from "zod";
import { ListQuery } from "../../core/db/paging";

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "YYYY-MM-DD");

export const AuditQuery = ListQuery.extend({
  /** Inclusive calendar days in Asia/Jakarta. */
  from: Day.optional(),
  to: Day.optional(),
  actor: z.string().min(1).max(64).optional(),
  action: z.string().min(1).max(64).optional(),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

export const PlatformAuditQuery = AuditQuery.extend({
  /** A tenant's slug or id, or `platform` for the changes that concern no tenant. */
  tenant: z.string().min(1).max(64).optional(),
});
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
