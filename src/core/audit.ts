import type { BatchItem } from "drizzle-orm/batch";
import type { Actor } from "./context";
import { auditLog } from "./db/platform-schema";
import type { PlatformDb } from "./env";
import { newId } from "./ids";

export interface AuditEntry {
  tenantId: string | null;
  action: string;
  targetType: string;
  targetId?: string | null;
  detail?: Record<string, unknown>;
}

export interface AuditSource {
  actor: Actor;
  requestId: string;
  ip: string | null;
}

function actorFields(actor: Actor): { actorId: string | null; actorRole: string | null } {
  switch (actor.kind) {
    case "user":
      return { actorId: actor.userId, actorRole: actor.role };
    case "device":
      return { actorId: actor.deviceId, actorRole: "device" };
    case "service":
      return { actorId: actor.name, actorRole: "service" };
    default:
      return { actorId: null, actorRole: actor.kind };
  }
}

/**
 * An audit insert as a query, so a platform write and its audit record go in the same D1 batch
 * (nothing is recorded for a change that rolled back, and no change goes unrecorded).
 */
export function auditInsert(db: PlatformDb, source: AuditSource, entry: AuditEntry): BatchItem<"sqlite"> {
  return db.insert(auditLog).values({
    id: newId(),
    tenantId: entry.tenantId,
    ...actorFields(source.actor),
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId ?? null,
    ip: source.ip,
    requestId: source.requestId,
    detail: entry.detail ? JSON.stringify(entry.detail) : null,
  });
}
