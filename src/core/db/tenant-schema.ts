import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { idempotencyTable } from "./idempotency-keys";
import { preconditionChecksTable } from "./row-version";

/**
 * Tables core keeps in every tenant database. The audit record of a tenant's change lives beside the
 * change, so both are written in one D1 batch (ADR 0006).
 */
export const tenantAuditLog = sqliteTable(
  "audit_log",
  {
    id: text("id").primaryKey(),
    actorId: text("actor_id"),
    actorRole: text("actor_role"),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id"),
    ip: text("ip"),
    requestId: text("request_id"),
    detail: text("detail", { mode: "json" }).$type<Record<string, unknown>>(),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
  },
  (t) => [index("audit_created_idx").on(t.createdAt), index("audit_actor_idx").on(t.actorId, t.createdAt)],
);

/**
 * The tenant's file store (platform/uploads): every image a member uploads (proof of payment, receipts,
 * covers, gallery and marketplace photos) has one row here, and its bytes one object in R2 under a key
 * the server chose. Routes serve a file by this row's id after checking who may see its purpose,
 * never by key. `sha256` is of the stored bytes (metadata already removed): the ETag.
 */
export const tenantFiles = sqliteTable(
  "files",
  {
    id: text("id").primaryKey(),
    purpose: text("purpose").notNull(),
    r2Key: text("r2_key").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    sha256: text("sha256").notNull(),
    uploadedBy: text("uploaded_by").notNull(),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
  },
  (t) => [
    uniqueIndex("files_r2_key_uq").on(t.r2Key),
    index("files_uploader_idx").on(t.uploadedBy, t.id),
    index("files_purpose_idx").on(t.purpose, t.id),
  ],
);

/** The community's `Idempotency-Key`s (platform/idempotency, ADR 0034): marked in the batch of the change. */
export const tenantIdempotencyKeys = idempotencyTable();

/** The If-Match guard's one row (core/db/row-version.ts, ADR 0035). */
export const tenantPreconditionChecks = preconditionChecksTable();

/**
 * Which tenant owns this database (core/tenancy/owner.ts): one row, written when a tenant claims the
 * slot (provision.ts) or, for a slot claimed before this table existed, by the first context that opens
 * it while the platform row says that tenant holds the slot. Every tenant context checks it before its
 * first statement answers, so an isolate that still caches a closed tenant's slot never reads the next
 * tenant's data. Dropped with everything else when the slot is emptied (wipe.ts); never archived.
 */
export const tenantSlotOwner = sqliteTable(
  "slot_owner",
  {
    id: integer("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
  },
  (t) => [check("slot_owner_one_row", sql`${t.id} = 1`)],
);
