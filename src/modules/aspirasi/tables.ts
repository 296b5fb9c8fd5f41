import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { rowVersion } from "../../core/db/row-version";

export const COMPLAINT_STATUSES = ["baru", "diproses", "selesai", "ditolak"] as const;
export const COMPLAINT_CATEGORIES = [
  "kebersihan",
  "keamanan",
  "infrastruktur",
  "sosial",
  "administrasi",
  "lainnya",
] as const;

/** A resident's complaint (pengaduan) to the RT staff; `revision` guards status changes. */
export const complaints = sqliteTable(
  "complaints",
  {
    id: text("id").primaryKey(),
    /** ETag and If-Match (ADR 0035); moved by a trigger, never set here. */
    rowVersion: rowVersion(),
    residentId: text("resident_id").notNull(),
    unitId: text("unit_id"),
    title: text("title").notNull(),
    description: text("description").notNull(),
    category: text("category", { enum: COMPLAINT_CATEGORIES }).notNull(),
    /** An image URL or storage key (uploads arrive through the files module). */
    photo: text("photo"),
    location: text("location"),
    status: text("status", { enum: COMPLAINT_STATUSES }).notNull(),
    revision: integer("revision").notNull().default(1),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    index("complaints_status_idx").on(t.status, t.id),
    index("complaints_resident_idx").on(t.residentId, t.id),
  ],
);

/** The complaint's thread: staff responses and status changes, in order. */
export const complaintMessages = sqliteTable(
  "complaint_messages",
  {
    id: text("id").primaryKey(),
    complaintId: text("complaint_id").notNull(),
    authorId: text("author_id").notNull(),
    byStaff: integer("by_staff", { mode: "boolean" }).notNull(),
    status: text("status"),
    body: text("body"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("complaint_messages_idx").on(t.complaintId, t.id)],
);

/**
 * A suggestion (saran). An anonymous one stores no sender at all — not hidden, absent — so no staff
 * view, export or database read can link it back to the resident.
 */
export const suggestions = sqliteTable(
  "suggestions",
  {
    id: text("id").primaryKey(),
    senderId: text("sender_id"),
    anonymous: integer("anonymous", { mode: "boolean" }).notNull(),
    body: text("body").notNull(),
    readAt: text("read_at"),
    readBy: text("read_by"),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
  },
  (t) => [index("suggestions_read_idx").on(t.readAt, t.id)],
);

export const PROPOSAL_STATUSES = ["diajukan", "diterima", "ditolak"] as const;

/** A resident's proposal (usulan) that other residents endorse; `endorsements` moves with each row below. */
export const proposals = sqliteTable(
  "proposals",
  {
    id: text("id").primaryKey(),
    /** ETag and If-Match (ADR 0035); moved by a trigger, never set here. */
    rowVersion: rowVersion(),
    residentId: text("resident_id").notNull(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    estimatedCost: integer("estimated_cost"),
    status: text("status", { enum: PROPOSAL_STATUSES }).notNull(),
    note: text("note"),
    endorsements: integer("endorsements").notNull().default(0),
    decidedBy: text("decided_by"),
    decidedAt: text("decided_at"),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("proposals_status_idx").on(t.status, t.id)],
);

/** One endorsement per resident per proposal: the primary key is the rule. */
export const proposalEndorsements = sqliteTable(
  "proposal_endorsements",
  {
    proposalId: text("proposal_id").notNull(),
    userId: text("user_id").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.proposalId, t.userId] })],
);
