import { tenantAuditLog } from "../../core/db/tenant-schema";
import { personalColumns, personalData } from "../../core/module";

/** How its tenant tables hold personal data (core/module.ts PersonalColumns; export and erasure). */
export const auditPersonalData = personalData(
  personalColumns(tenantAuditLog, {
    subjects: [tenantAuditLog.actorId],
    personal: [tenantAuditLog.ip, tenantAuditLog.detail],
    // The detail describes what the actor acted on (another family's plate, a resident's fields).
    aboutOthers: [tenantAuditLog.detail],
    other: [
      tenantAuditLog.id,
      tenantAuditLog.actorRole,
      tenantAuditLog.action,
      tenantAuditLog.targetType,
      tenantAuditLog.targetId,
      tenantAuditLog.requestId,
      tenantAuditLog.createdAt,
    ],
  }),
);
