import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { idempotencyTable } from "./idempotency-keys";
import { preconditionChecksTable } from "./row-version";

/**
 * Control plane: the one database every request may touch besides its own tenant's. Identity's tables
 * (accounts, memberships, sign-ins, one-time secrets) live in the same database but in identity-schema.ts,
 * which a path rule in biome.json keeps to core and src/modules/identity (ADR 0050).
 */

/** A tenant's subscription: trial, paid up, in its 14 days of grace, or lapsed (read-only). */
export const SUBSCRIPTION_STATUSES = ["trial", "aktif", "tenggang", "nonaktif"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/**
 * `ditutup`: closed by the operator; it serves nothing, and its slot is wiped and returned to the pool
 * (slot null) by the close itself or, after a crash, by the hourly job.
 */
export const TENANT_STATUSES = ["provisioning", "active", "suspended", "ditutup"] as const;
export type TenantStatus = (typeof TENANT_STATUSES)[number];

/**
 * The operator's moves from each status (what a tenant's state conflicts name as allowed next): a
 * provisioning tenant waits for its job, a live one is suspended, resumed or closed, a closed one is final.
 */
export const TENANT_NEXT: Record<TenantStatus, readonly TenantStatus[]> = {
  provisioning: [],
  active: ["suspended", "ditutup"],
  suspended: ["active", "ditutup"],
  ditutup: [],
};

/** When the row was written, by the database's own clock (also identity-schema.ts's). */
export const createdAt = () =>
  text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`);

export const tenants = sqliteTable(
  "tenants",
  {
    id: text("id").primaryKey(),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    type: text("type", { enum: ["RT", "RW"] }).notNull(),
    parentId: text("parent_id"),
    /** When the RT was linked to its parent RW (creation with a parent, link-child, or the operator). */
    linkedAt: text("linked_at"),
    flags: text("flags").notNull(),
    /** The database slot; null once a closed community's slot has been wiped and returned to the pool. */
    slot: integer("slot"),
    status: text("status", { enum: TENANT_STATUSES }).notNull(),
    /**
     * An RW that asked to become this RT's parent (link-child), until the RT's admin accepts or
     * declines: the RW reads nothing of the RT before that.
     */
    parentRequestId: text("parent_request_id"),
    parentRequestedAt: text("parent_requested_at"),
    /** When the operator closed the community (status `ditutup`). */
    closedAt: text("closed_at"),
    /**
     * The subscription's state as billing last wrote it (billing owns the subscription itself); the
     * guard reads it with the tenant: `nonaktif` turns writes into 402 (core/http/access.ts).
     */
    subscriptionStatus: text("subscription_status", { enum: SUBSCRIPTION_STATUSES })
      .notNull()
      .default("trial"),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("tenants_slug_uq").on(t.slug),
    uniqueIndex("tenants_slot_uq").on(t.slot),
    index("tenants_parent_idx").on(t.parentId),
  ],
);

export const auditLog = sqliteTable(
  "audit_log",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id"),
    actorId: text("actor_id"),
    actorRole: text("actor_role"),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id"),
    ip: text("ip"),
    requestId: text("request_id"),
    detail: text("detail", { mode: "json" }).$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_tenant_created_idx").on(t.tenantId, t.createdAt),
    index("audit_created_idx").on(t.createdAt),
    index("audit_actor_idx").on(t.actorId, t.createdAt),
  ],
);

/**
 * A request to become a resident of a tenant, sent from the public form. Kept in the platform database
 * because approval creates the account and membership there, in the same batch as the status change.
 */
export const residentApplications = sqliteTable(
  "resident_applications",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    fullName: text("full_name").notNull(),
    email: text("email"),
    whatsapp: text("whatsapp").notNull(),
    block: text("block").notNull(),
    houseNumber: text("house_number").notNull(),
    kkNumber: text("kk_number"),
    note: text("note"),
    status: text("status", { enum: ["menunggu", "disetujui", "ditolak"] }).notNull(),
    reason: text("reason"),
    /** Random per decision: later statements of the approval batch check that this decision won. */
    decisionId: text("decision_id"),
    decidedBy: text("decided_by"),
    decidedAt: text("decided_at"),
    userId: text("user_id"),
    ip: text("ip"),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    index("resident_applications_tenant_status_idx").on(t.tenantId, t.status, t.id),
    index("resident_applications_tenant_whatsapp_idx").on(t.tenantId, t.whatsapp),
  ],
);

/**
 * Gate hardware lives in the platform database because the webhook arrives with nothing but the
 * device's key: the key's hash must lead to the device and from there to its tenant.
 */
export const gateDevices = sqliteTable(
  "gate_devices",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    name: text("name").notNull(),
    adapter: text("adapter", { enum: ["generic", "hikvision"] }).notNull(),
    /** SHA-256 of the API key; the key itself is shown once, at creation. */
    keyHash: text("key_hash").notNull(),
    /** The key's first characters, so staff can tell devices' keys apart. */
    keyPrefix: text("key_prefix").notNull(),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    lastSeenAt: text("last_seen_at"),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
    /** Deleted devices disappear from lists and their keys stop working; the row stays for the event log. */
    deletedAt: text("deleted_at"),
  },
  (t) => [
    uniqueIndex("gate_devices_key_uq").on(t.keyHash),
    index("gate_devices_tenant_idx").on(t.tenantId, t.id),
  ],
);

/** `Idempotency-Key`s of requests outside a community, and marks of tenant requests' platform writes (ADR 0034). */
export const idempotencyKeys = idempotencyTable();

/** The If-Match guard's one row for the platform's versioned tables (core/db/row-version.ts, ADR 0035). */
export const platformPreconditionChecks = preconditionChecksTable();
