import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { Duty } from "../actor";
import { idempotencyTable } from "./idempotency-keys";
import { preconditionChecksTable, rowVersion } from "./row-version";

/** Control plane: the one database every request may touch besides its own tenant's. */

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

const createdAt = () => text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`);

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

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    /** Null for residents who applied with a WhatsApp number only: they sign in with that number. */
    email: text("email"),
    /**
     * When the holder proved the email (a link or code sent to it was used); null while it is only
     * what someone typed. See whatsappVerifiedAt for what an unproven contact may and may not do.
     */
    emailVerifiedAt: text("email_verified_at"),
    name: text("name").notNull(),
    whatsapp: text("whatsapp"),
    /**
     * When the holder proved the number with a one-time code (or a set-password link sent to it); null
     * while it is only claimed. An unproven number still receives messages, but no invitation, approved
     * application or sign-in is matched to it (issue 44, P1), and any number of accounts may claim it.
     */
    whatsappVerifiedAt: text("whatsapp_verified_at"),
    passwordHash: text("password_hash"),
    platformRole: text("platform_role", { enum: ["super_admin"] }),
    status: text("status", { enum: ["active", "disabled"] })
      .notNull()
      .default("active"),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("users_email_uq").on(t.email),
    // A proven number identifies the account it signs in to, so two accounts cannot both have proven
    // it; a claim alone reserves nothing (else a squatter could lock the real holder out).
    uniqueIndex("users_whatsapp_verified_uq").on(t.whatsapp).where(sql`${t.whatsappVerifiedAt} IS NOT NULL`),
    index("users_whatsapp_idx").on(t.whatsapp),
  ],
);

/**
 * One-time codes that prove a contact (a WhatsApp number or an email) belongs to an account: six
 * digits, kept only as an HMAC, short-lived, single-use, with a bounded number of wrong tries. A new
 * code for the same account and channel retires the earlier ones.
 */
export const contactCodes = sqliteTable(
  "contact_codes",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    channel: text("channel", { enum: ["whatsapp", "email"] }).notNull(),
    /**
     * What the code is for (issue 45): `verify` proves a contact the caller typed on their profile;
     * `sign_in` signs in, or recovers, the account that has proven the number it was sent to.
     */
    purpose: text("purpose", { enum: ["verify", "sign_in"] })
      .notNull()
      .default("verify"),
    /** The contact the code was sent to: verifying proves this one, even if the profile changed since. */
    contact: text("contact").notNull(),
    codeHash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
    createdAt: createdAt(),
  },
  (t) => [index("contact_codes_user_idx").on(t.userId, t.channel)],
);

export const memberships = sqliteTable(
  "memberships",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    tenantId: text("tenant_id").notNull(),
    /**
     * Duties held in the community (sekretaris, bendahara, admin, satpam), none for a plain resident.
     * Residency is not a duty: it follows from `unitId` (core/context.ts isResident).
     */
    roles: text("roles", { mode: "json" }).$type<Duty[]>().notNull().default(sql`'[]'`),
    /** The resident's housing unit, a row of the tenant's own `units` table. */
    unitId: text("unit_id"),
    /** The member's own person on a family card of the tenant's registry (`family_members.id`). */
    personId: text("person_id"),
    /**
     * Set when the member's family moved out (or the last one living there died, issue 45): the
     * membership has ended, with no duty and no house, and is kept only until this instant so the person
     * can still sign in for their own data export; the hourly job deletes it then.
     */
    graceUntil: text("grace_until"),
    createdAt: createdAt(),
    /** Its version for `ETag` and `If-Match` on `/api/members/:userId` (ADR 0035), moved by a trigger. */
    rowVersion: rowVersion(),
  },
  (t) => [
    uniqueIndex("memberships_user_tenant_uq").on(t.userId, t.tenantId),
    // One account per registry person in a community (NULLs do not collide).
    uniqueIndex("memberships_tenant_person_uq").on(t.tenantId, t.personId),
  ],
);

export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    tenantId: text("tenant_id"),
    /** Every rotation of one sign-in shares a family; reuse of a spent refresh token revokes it whole. */
    familyId: text("family_id").notNull(),
    refreshHash: text("refresh_hash").notNull(),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
    revokedAt: text("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("sessions_refresh_uq").on(t.refreshHash),
    index("sessions_user_idx").on(t.userId),
    index("sessions_family_idx").on(t.familyId),
  ],
);

/**
 * Every sign-in ended, as it ends: a trigger on `sessions` appends the family when its `revoked_at` is
 * first set, whichever code path set it, stamped by the database's own clock (core/auth/liveness.ts
 * reads it, one read per isolate every few seconds, instead of one per sign-in; ADR 0004). The trigger
 * also drops entries older than a day: a revocation matters only while an access token issued before it
 * can still be presented (15 minutes).
 */
export const sessionRevocations = sqliteTable(
  "session_revocations",
  {
    /** Once per family: revoking one updates every rotation row of it, and the first row's entry stands. */
    familyId: text("family_id").primaryKey(),
    at: text("at").notNull(),
  },
  (t) => [index("session_revocations_at_idx").on(t.at)],
);

/**
 * Every membership changed or ended, as it changes: a trigger on `memberships` records the row's new
 * duties, house and version whenever its `row_version` moves (any UPDATE, by any statement), and marks it
 * removed when the row is deleted, stamped by the database's own clock. core/auth/liveness.ts reads it in
 * the same statement as `session_revocations`, so an access token issued before the change is served with
 * the membership as it now stands, on its very next request (ADR 0043). Entries older than a day are
 * dropped by the trigger.
 */
export const membershipChanges = sqliteTable(
  "membership_changes",
  {
    /** The membership (the access token's `mid`): once per row, the newest change standing. */
    membershipId: text("membership_id").primaryKey(),
    /** The duties after the change, as `memberships.roles` holds them (JSON). */
    roles: text("roles").notNull(),
    unitId: text("unit_id"),
    /** 1 when the membership was deleted. */
    removed: integer("removed").notNull().default(0),
    /** `memberships.row_version` after the change (one past the last for a deletion). */
    membershipVersion: integer("membership_version").notNull(),
    at: text("at").notNull(),
  },
  (t) => [index("membership_changes_at_idx").on(t.at)],
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
 * Single-use secrets sent to a person or a client: magic links, password resets, invitations (set a
 * first password) and OAuth exchange codes. Only the SHA-256 of the secret is stored; `used_at` is set by
 * the one UPDATE that consumes it, so a token can never be spent twice.
 */
export const oneTimeTokens = sqliteTable(
  "one_time_tokens",
  {
    id: text("id").primaryKey(),
    purpose: text("purpose", {
      enum: ["magic_link", "password_reset", "invitation", "oauth_exchange", "join", "sign_in_code"],
    }).notNull(),
    tokenHash: text("token_hash").notNull(),
    userId: text("user_id").notNull(),
    /**
     * What the token carries besides the user: the tenant to sign in to, or for a `join` link the
     * tenant and housing unit of the membership it creates once accepted.
     */
    data: text("data", { mode: "json" }).$type<{
      tenant?: string | null;
      tenantId?: string;
      unitId?: string | null;
      /** A `join` link's duties in the community (an officer invited by its admin or the operator). */
      roles?: Duty[];
      /** A `join` link's registry person (`family_members.id`) the membership is linked to, if staff picked one. */
      personId?: string | null;
      /**
       * An invitation's or join link's person as the inviter named them (name and the contact typed):
       * what the pending-invitations list shows, never the matched account's own contact.
       */
      invitee?: { name: string; email: string | null; whatsapp: string | null };
    }>(),
    /**
     * An invitation's or join link's community (issue 44): the pending list and retirement read it. A
     * join link made before the column names its community in `data.tenantId` only.
     */
    tenantId: text("tenant_id"),
    /** Who sent an invitation or join link: the staff member or operator; null for the system. */
    invitedBy: text("invited_by"),
    /** The channel the inviter was told the link went by. */
    channel: text("channel", { enum: ["email", "whatsapp"] }),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
    /**
     * When an invitation or join link was retired unused (a newer one to the same person, the admin's
     * revocation, the member's removal); `used_at` is set with it, so the link can no longer be spent.
     */
    retiredAt: text("retired_at"),
    retiredReason: text("retired_reason", { enum: ["replaced", "revoked", "removed"] }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("one_time_tokens_hash_uq").on(t.tokenHash),
    index("one_time_tokens_user_idx").on(t.userId, t.purpose),
    index("one_time_tokens_tenant_idx").on(t.tenantId, t.purpose),
  ],
);

/** An OAuth/OIDC sign-in in flight: PKCE verifier and nonce, found by the hash of its `state`. */
export const oauthStates = sqliteTable(
  "oauth_states",
  {
    id: text("id").primaryKey(),
    stateHash: text("state_hash").notNull(),
    provider: text("provider").notNull(),
    codeVerifier: text("code_verifier").notNull(),
    nonce: text("nonce").notNull(),
    tenant: text("tenant"),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("oauth_states_hash_uq").on(t.stateHash)],
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
