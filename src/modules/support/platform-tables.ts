import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * Support tickets are between a tenant (or a visitor of the marketing site) and the platform, so they
 * live in the platform database: operators list them across tenants, and the public reply token and
 * the inbound Email Worker reach them with nothing but the token.
 */
export const supportTickets = sqliteTable(
  "support_tickets",
  {
    id: text("id").primaryKey(),
    /** Human-friendly number shown in emails ("Tiket #1024"). */
    number: integer("number").notNull(),
    /** Null for tickets from the marketing site's contact form. */
    tenantId: text("tenant_id"),
    /** Copied at creation: the operators' label `Tenant {slug}` comes from the ticket itself. */
    tenantSlug: text("tenant_slug"),
    source: text("source", { enum: ["tenant", "homepage"] }).notNull(),
    category: text("category").notNull(),
    title: text("title").notNull(),
    detail: text("detail").notNull(),
    /** The evidence image given at creation (a row of `support_files`). */
    attachmentFileId: text("attachment_file_id"),
    status: text("status", { enum: ["baru", "diproses", "selesai"] }).notNull(),
    /**
     * SHA-256 of the login-free reply token, never the token itself: the token is derived from the
     * ticket id under a server key (store.ts `replyTokenOf`), so later emails can still carry it.
     */
    replyTokenHash: text("reply_token_hash").notNull(),
    submitterUserId: text("submitter_user_id"),
    submitterName: text("submitter_name").notNull(),
    submitterEmail: text("submitter_email"),
    submitterPhone: text("submitter_phone"),
    /**
     * True while an email about this ticket is not known to be delivered: set when one is handed to the
     * notification service (or could not be), cleared when the service reports every one sent
     * (notifications.ts `withDeliveryState`).
     */
    notificationPending: integer("notification_pending", { mode: "boolean" }).notNull().default(false),
    /**
     * An email about this ticket was given up on: the notification service marked it failed or dead, or
     * it could not be handed over at all. Stays set: the operators have been alerted and look at it.
     */
    notificationFailed: integer("notification_failed", { mode: "boolean" }).notNull().default(false),
    /** Random per write: a batch's guard checks that its own write is the one that landed. */
    writeId: text("write_id").notNull(),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("support_tickets_number_uq").on(t.number),
    uniqueIndex("support_tickets_reply_hash_uq").on(t.replyTokenHash),
    // Lists order by (created_at, id) and filter by days: each index serves one console's page in order
    // and, with the status in it, counts the summary without touching the table.
    index("support_tickets_tenant_created_idx").on(t.tenantId, t.createdAt, t.id, t.status),
    index("support_tickets_slug_created_idx").on(t.tenantSlug, t.createdAt, t.id, t.status),
    index("support_tickets_status_created_idx").on(t.status, t.createdAt, t.id),
    index("support_tickets_created_idx").on(t.createdAt, t.id, t.status),
  ],
);

export const supportTicketMessages = sqliteTable(
  "support_ticket_messages",
  {
    id: text("id").primaryKey(),
    ticketId: text("ticket_id").notNull(),
    /** `submitter`: the tenant admin or the contact-form sender; `operator`: the platform team. */
    author: text("author", { enum: ["submitter", "operator"] }).notNull(),
    via: text("via", { enum: ["console", "public", "email"] }).notNull(),
    authorUserId: text("author_user_id"),
    authorName: text("author_name").notNull(),
    message: text("message").notNull(),
    /** Message-ID of an inbound email: UNIQUE, so one email is never appended twice, even concurrently. */
    emailMessageId: text("email_message_id"),
    /** The status the ticket moved to with this message, if it moved. */
    statusChange: text("status_change", { enum: ["baru", "diproses", "selesai"] }),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
  },
  (t) => [
    index("support_ticket_messages_ticket_idx").on(t.ticketId, t.id),
    uniqueIndex("support_ticket_messages_email_uq").on(t.emailMessageId),
  ],
);

/**
 * Every stored image: who uploaded it (the scope an attachment must match, so nobody can attach
 * someone else's upload), where it is in R2, and the ticket and message it belongs to once attached.
 * The file route checks access against this row, never against the key.
 */
export const supportFiles = sqliteTable(
  "support_files",
  {
    id: text("id").primaryKey(),
    scope: text("scope", { enum: ["tenant", "platform", "public", "inbound"] }).notNull(),
    tenantId: text("tenant_id"),
    uploadedBy: text("uploaded_by"),
    r2Key: text("r2_key").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    filename: text("filename"),
    /** Public uploads know their ticket from the start (the reply token); others learn it on attach. */
    ticketId: text("ticket_id"),
    /** Null with a ticket id: the ticket's initial attachment. */
    messageId: text("message_id"),
    attachedAt: text("attached_at"),
    /** Random per attach, checked by the batch guard so two attaches of one upload cannot both win. */
    attachId: text("attach_id"),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
  },
  (t) => [
    uniqueIndex("support_files_key_uq").on(t.r2Key),
    index("support_files_ticket_idx").on(t.ticketId, t.messageId),
  ],
);
