import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { rowVersion } from "../../core/db/row-version";

/** Who a guest at the gate is (issue 45): most are ojol drivers and couriers, not social visits. */
export const VISIT_CATEGORIES = ["tamu", "ojol", "kurir", "keluarga", "layanan", "lainnya"] as const;
/** How a request was approved: by staff, by the host from their phone, or by the guard after calling the host. */
export const APPROVAL_METHODS = ["pengurus", "tuan_rumah", "telepon"] as const;

/**
 * A guest a resident registers (buku tamu). Check-in and check-out are recorded on the request itself:
 * the status stays `disetujui`, and `checkedInAt`/`checkedOutAt` say whether the guest is inside.
 */
export const visitors = sqliteTable(
  "visitors",
  {
    id: text("id").primaryKey(),
    /** ETag and If-Match (ADR 0035); moved by a trigger, never set here. */
    rowVersion: rowVersion(),
    residentId: text("resident_id").notNull(),
    unitId: text("unit_id"),
    guestName: text("guest_name").notNull(),
    purpose: text("purpose").notNull(),
    visitAt: text("visit_at").notNull(),
    vehiclePlate: text("vehicle_plate"),
    /** What the guest identifies with (e.g. "KTP", a phone number); shown to staff only. */
    identity: text("identity"),
    status: text("status", { enum: ["menunggu", "disetujui", "ditolak"] }).notNull(),
    note: text("note"),
    decidedBy: text("decided_by"),
    decidedAt: text("decided_at"),
    passValidFrom: text("pass_valid_from"),
    passValidUntil: text("pass_valid_until"),
    /** When the approval email was queued; null while it is still owed (the service was down). */
    notifiedAt: text("notified_at"),
    checkedInAt: text("checked_in_at"),
    checkedInBy: text("checked_in_by"),
    checkedOutAt: text("checked_out_at"),
    checkedOutBy: text("checked_out_by"),
    /** The guard who registered a walk-in at the gate (issue 45); null for a resident's own registration. */
    registeredBy: text("registered_by"),
    category: text("category", { enum: VISIT_CATEGORIES }),
    /** The last day of a stay of several days, as the resident asked for it; null for a single visit. */
    stayUntil: text("stay_until"),
    approvalMethod: text("approval_method", { enum: APPROVAL_METHODS }),
    /**
     * A pass for a stay longer than a day lets its guest out and in again while it is valid; a single
     * visit's pass is spent at the first exit (`pass_used`). Set when the pass is issued.
     */
    multiEntry: integer("multi_entry", { mode: "boolean" }).notNull().default(false),
    /** The regular visitor's card (`regular_visitors`) this visit entered on; null for any other guest. */
    regularId: text("regular_id"),
    /** A walk-in's photo taken at the gate (a `tamu` file, platform/uploads); null when none was taken. */
    photoFileId: text("photo_file_id"),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    index("visitors_status_visit_idx").on(t.status, t.visitAt),
    // The review list by status, newest first: one range of the index, not every row of the status sorted.
    index("visitors_status_id_idx").on(t.status, t.id),
    index("visitors_resident_idx").on(t.residentId, t.id),
    index("visitors_unit_idx").on(t.unitId, t.id),
    // A regular visitor is inside at most once: a second entry before the exit breaks this, whoever races.
    uniqueIndex("visitors_regular_inside_uq")
      .on(t.regularId)
      .where(sql`regular_id IS NOT NULL AND checked_out_at IS NULL`),
    index("visitors_inside_idx").on(t.checkedInAt, t.checkedOutAt),
    // Who is inside now, newest first: only those rows, not a walk of every guest ever registered.
    index("visitors_inside_now_idx")
      .on(t.id)
      .where(sql`checked_in_at IS NOT NULL AND checked_out_at IS NULL`),
  ],
);

/**
 * What a community asks of a guest at registration (issue 42): the spec lists the vehicle plate and the
 * identity as given at registration, so both are required unless the community says it does not record
 * them. One row (`id` 1); no row is the default, both required.
 */
export const visitorSettings = sqliteTable("visitor_settings", {
  id: integer("id").primaryKey(),
  requireVehiclePlate: integer("require_vehicle_plate", { mode: "boolean" }).notNull(),
  requireIdentity: integer("require_identity", { mode: "boolean" }).notNull(),
  updatedAt: text("updated_at").notNull(),
  updatedBy: text("updated_by"),
});

/**
 * Every time a guest went through the gate (issue 45): a multi-day pass goes in and out several times,
 * while the visitor row keeps only the latest entry and exit. Written in the scan's own batch.
 */
export const visitorPassages = sqliteTable(
  "visitor_passages",
  {
    id: text("id").primaryKey(),
    visitorId: text("visitor_id").notNull(),
    direction: text("direction", { enum: ["in", "out"] }).notNull(),
    at: text("at").notNull(),
    /** The guard or staff member, or `device:<id>` for a gate device. */
    passedBy: text("passed_by").notNull(),
  },
  (t) => [index("visitor_passages_visitor_idx").on(t.visitorId, t.at)],
);

/** Who comes regularly to a house (issue 45): domestic help, a driver, a nanny, a builder. */
export const REGULAR_ROLES = ["art", "sopir", "pengasuh", "tukang", "lainnya"] as const;

/**
 * A recurring pass a household issues for someone who comes regularly: on the given days of the week
 * (ISO, 1 Monday … 7 Sunday) between two times of day, Asia/Jakarta, until revoked (or its last day).
 * Each entry at the gate is a visit of its own (`visitors.regular_id`), checked in and out as any other.
 */
export const regularVisitors = sqliteTable(
  "regular_visitors",
  {
    id: text("id").primaryKey(),
    residentId: text("resident_id").notNull(),
    unitId: text("unit_id").notNull(),
    name: text("name").notNull(),
    role: text("role", { enum: REGULAR_ROLES }).notNull(),
    vehiclePlate: text("vehicle_plate"),
    /** ISO weekdays as a comma-separated list, e.g. `1,2,3,4,5`. */
    days: text("days").notNull(),
    /** `HH:MM`, Asia/Jakarta; the window is [fromTime, untilTime). */
    fromTime: text("from_time").notNull(),
    untilTime: text("until_time").notNull(),
    /** The last day (YYYY-MM-DD, Asia/Jakarta) the card is valid; null: until revoked. */
    validUntil: text("valid_until"),
    revokedAt: text("revoked_at"),
    revokedBy: text("revoked_by"),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("regular_visitors_unit_idx").on(t.unitId, t.id)],
);
