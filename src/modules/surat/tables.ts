import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { rowVersion } from "../../core/db/row-version";

export const LETTER_STATUSES = [
  "diajukan",
  "diproses",
  "perlu_perbaikan",
  "selesai",
  "ditolak",
  "dibatalkan",
] as const;
export type LetterStatus = (typeof LETTER_STATUSES)[number];

/**
 * Where a finished letter stands with the RW the RT is linked to (ADR 0030); `tanpa_rw`: the RT issued it
 * without waiting any longer (issue 45), recorded with who, when and why.
 */
export const RW_ACK_STATUSES = ["menunggu", "diketahui", "ditolak", "tanpa_rw"] as const;
export type RwAckStatus = (typeof RW_ACK_STATUSES)[number];

/**
 * What a letter prints of its community, fixed when it is finished: the letterhead chain and the
 * signatory. A later PDF version (a corrected number, the RW's acknowledgement) prints the same head and
 * name, whatever the settings have become since.
 */
export interface IssuedAs {
  tenantName: string;
  rt: string | null;
  rw: string | null;
  kelurahan: string;
  villageKind: "kelurahan" | "desa";
  kecamatan: string;
  kota: string;
  provinsi: string;
  address: string | null;
  logoDataUrl: string | null;
  headName: string;
  headTitle: string;
}

/**
 * A letter request (surat). `revision` guards every write (compare-and-set), so two staff acting at
 * once cannot both win; `pdfVersion` moves whenever something printed on the letter changes, which
 * names a new PDF object in R2 instead of serving a stale one.
 */
export const letters = sqliteTable(
  "letters",
  {
    id: text("id").primaryKey(),
    /** ETag and If-Match (ADR 0035); moved by a trigger, never set here. */
    rowVersion: rowVersion(),
    residentId: text("resident_id").notNull(),
    unitId: text("unit_id").notNull(),
    jenis: text("jenis").notNull(),
    /** `self` or the id of a member of the resident's household (family_members). */
    onBehalfOf: text("on_behalf_of").notNull(),
    /** The name printed on the letter, taken when the request is made or corrected. */
    subjectName: text("subject_name").notNull(),
    keperluan: text("keperluan").notNull(),
    /** The type's additional fields, validated against jenis.ts. */
    fields: text("fields", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    status: text("status", { enum: LETTER_STATUSES }).notNull(),
    nomorSurat: text("nomor_surat"),
    tanggalSurat: text("tanggal_surat"),
    note: text("note"),
    /** `<tenant slug>.<128 random bits>`: the public verification page finds the tenant from it. */
    verificationCode: text("verification_code"),
    revision: integer("revision").notNull().default(1),
    pdfVersion: integer("pdf_version").notNull().default(1),
    decidedBy: text("decided_by"),
    finishedAt: text("finished_at"),
    /** The letterhead and signatory the letter was finished with (null before selesai). */
    issuedAs: text("issued_as", { mode: "json" }).$type<IssuedAs>(),
    /** Null when no RW acknowledges this letter (no RW link, or the RT switched it off). */
    rwAckStatus: text("rw_ack_status", { enum: RW_ACK_STATUSES }),
    /**
     * The RW member who acknowledged or declined (a user id of the RW's community), or for `tanpa_rw` the
     * RT's staff member who issued the letter without it.
     */
    rwAckBy: text("rw_ack_by"),
    /** The RW head's name and title as printed under "Mengetahui" (for `tanpa_rw`: who issued), and when. */
    rwAckName: text("rw_ack_name"),
    rwAckTitle: text("rw_ack_title"),
    rwAckAt: text("rw_ack_at"),
    /**
     * Why the RW declined (the RT reads it on the letter, which is back in its hands: diproses), or why
     * the RT issued it without the RW.
     */
    rwAckNote: text("rw_ack_note"),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("letters_nomor_uq").on(t.nomorSurat),
    uniqueIndex("letters_verification_uq").on(t.verificationCode),
    index("letters_resident_idx").on(t.residentId, t.id),
    index("letters_status_idx").on(t.status, t.id),
    // The RW's queue walks each linked RT's letters by acknowledgement status, newest first.
    index("letters_rw_ack_idx").on(t.rwAckStatus, t.id),
  ],
);

/** The letter's history: every status change and correction, with who made it and why. */
export const letterEvents = sqliteTable(
  "letter_events",
  {
    id: text("id").primaryKey(),
    letterId: text("letter_id").notNull(),
    status: text("status").notNull(),
    note: text("note"),
    actorId: text("actor_id").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("letter_events_letter_idx").on(t.letterId, t.id)],
);

/** The highest sequence number used per year: numbering restarts at 1 every January. */
export const letterSequences = sqliteTable("letter_sequences", {
  year: integer("year").primaryKey(),
  last: integer("last").notNull(),
});

/** The tenant's letterhead, signatory and number format: one row (id 1), edited by the secretary or admin. */
export const letterSettings = sqliteTable("letter_settings", {
  id: integer("id").primaryKey(),
  /** ETag and If-Match (ADR 0035); moved by a trigger, never set here. */
  rowVersion: rowVersion(),
  rt: text("rt"),
  rw: text("rw"),
  kelurahan: text("kelurahan"),
  /** `desa` prints "Desa …" where a kelurahan prints "Kelurahan …"; null is kelurahan. */
  villageKind: text("village_kind", { enum: ["kelurahan", "desa"] }),
  kecamatan: text("kecamatan"),
  kota: text("kota"),
  provinsi: text("provinsi"),
  address: text("address"),
  /** A data: URL (PNG, JPEG or SVG): the renderer has no network, so the logo travels inline. */
  logoDataUrl: text("logo_data_url"),
  headName: text("head_name"),
  headTitle: text("head_title"),
  numberFormat: text("number_format"),
  /**
   * Whether finished letters wait for the linked RW's "Mengetahui" (ADR 0030). Only true turns it on:
   * null (never set) is off (issue 44 P6), since the RW then reads each letter's resident and purpose.
   */
  rwAcknowledgement: integer("rw_acknowledgement", { mode: "boolean" }),
  updatedAt: text("updated_at").notNull(),
  updatedBy: text("updated_by"),
});
