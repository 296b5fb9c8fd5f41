import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * A closed community's issued letters, kept so their QR codes still verify (issue 42): a letter outlives
 * the RT that signed it, but the RT's database is wiped once its final archive is written. Written by
 * the close (surat/kept.ts, before the wipe, again on every retry until it succeeds), keyed by the
 * SHA-256 of the letter's verification code, holding exactly what the verification page shows and no
 * more (no NIK, no address, no purpose). Kept until `valid_until`: the letter's own validity, or a fixed
 * term for the types that state none; the hourly closing job drops what has lapsed.
 */
export const letterVerifications = sqliteTable(
  "letter_verifications",
  {
    codeHash: text("code_hash").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    letterId: text("letter_id").notNull(),
    tenantName: text("tenant_name").notNull(),
    nomorSurat: text("nomor_surat").notNull(),
    jenisName: text("jenis_name").notNull(),
    /** `YYYY-MM-DD`, as the letter is dated. */
    tanggalSurat: text("tanggal_surat").notNull(),
    subjectName: text("subject_name").notNull(),
    signatoryName: text("signatory_name").notNull(),
    signatoryTitle: text("signatory_title").notNull(),
    /** The RW's Mengetahui as the letter stood at the close: null (none asked), menunggu or diketahui. */
    rwStatus: text("rw_status", { enum: ["menunggu", "diketahui"] }),
    rwName: text("rw_name"),
    rwTitle: text("rw_title"),
    /** `YYYY-MM-DD` in Asia/Jakarta. */
    rwDay: text("rw_day"),
    /** `YYYY-MM-DD`: the last day the page vouches for the letter. */
    validUntil: text("valid_until").notNull(),
    keptAt: text("kept_at").notNull(),
  },
  (t) => [
    index("letter_verifications_valid_idx").on(t.validUntil),
    index("letter_verifications_tenant_idx").on(t.tenantId),
  ],
);
