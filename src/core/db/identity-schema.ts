import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { Duty } from "../actor";
import { createdAt } from "./platform-schema";
import { rowVersion } from "./row-version";

/**
 * Identity's tables in the platform database: accounts, the proof of their contacts, memberships,
 * sign-ins (sessions and the trigger-kept logs core/auth/liveness.ts reads), one-time secrets and OAuth
 * sign-ins in flight. Only core and src/modules/identity import this file (a path rule in biome.json,
 * which also refuses `import * as`; ADR 0050): every other module asks identity's service.ts.
 * drizzle.platform.config.ts lists it, so the platform migrations are unchanged.
 */

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

/**
 * Every account whose display name changed (or that was deleted), as it changes: a trigger on `users`
 * records the id, stamped by the database's own clock, whenever `name` changes by any statement. The
 * isolate's cache of display names (core/auth/liveness.ts, ADR 0053) drops a name when the feed brings
 * its id, read in the same statement as the sign-in and membership feeds. No name is kept here, only
 * that it changed. Entries older than a day are dropped by the trigger.
 */
export const userNameChanges = sqliteTable(
  "user_name_changes",
  {
    userId: text("user_id").primaryKey(),
    at: text("at").notNull(),
  },
  (t) => [index("user_name_changes_at_idx").on(t.at)],
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
