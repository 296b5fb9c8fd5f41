import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { rowVersion } from "../../core/db/row-version";

export const OCCUPANCIES = ["pemilik", "penyewa", "kosong"] as const;
export const KK_STATUSES = ["aktif", "pindah", "meninggal"] as const;

/** A housing unit of the community: block plus house number, with its location for the map. */
export const units = sqliteTable(
  "units",
  {
    id: text("id").primaryKey(),
    /** ETag and If-Match (ADR 0035); moved by a trigger, never set here. */
    rowVersion: rowVersion(),
    block: text("block").notNull(),
    number: text("number").notNull(),
    latitude: real("latitude"),
    longitude: real("longitude"),
    /** Who lives there: the owner, a tenant, or nobody; null until staff say. */
    occupancy: text("occupancy", { enum: OCCUPANCIES }),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("units_block_number_uq").on(t.block, t.number), index("units_block_idx").on(t.block)],
);

/**
 * A family card (Kartu Keluarga) registered at a housing unit. A house may hold more than one KK; a
 * resident's household is every member of every KK at their unit. NIKs and KK numbers are personal
 * data: never logged, masked in lists, whole only in staff detail views.
 */
export const familyCards = sqliteTable(
  "family_cards",
  {
    id: text("id").primaryKey(),
    /** ETag and If-Match (ADR 0035); moved by a trigger, never set here. */
    rowVersion: rowVersion(),
    kkNumber: text("kk_number").notNull(),
    unitId: text("unit_id").notNull(),
    headName: text("head_name").notNull(),
    headNik: text("head_nik").notNull(),
    headWhatsapp: text("head_whatsapp"),
    /** `pindah` (moved out) and `meninggal` (no living member left) are history: not billed, not counted. */
    status: text("status", { enum: KK_STATUSES }).notNull().default("aktif"),
    /** The day (YYYY-MM-DD, Jakarta) the status last changed; dues stop from the period after it. */
    statusDate: text("status_date"),
    notes: text("notes"),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
    updatedAt: text("updated_at").notNull(),
    /**
     * Every member's name and every vehicle plate of the card, separated by U+001F (which neither may
     * hold), for the registry search. Kept by the database's own triggers on family_members and
     * vehicles (migration 0012), so no write path of ours, an import or an archive restore can leave it
     * stale; never written by the application.
     */
    searchText: text("search_text").notNull().default(""),
    /**
     * The card's living members and its vehicles, for the registry's statistics and the dashboard
     * (issue 32). Kept like `search_text`, by the database's own triggers on family_members and vehicles
     * (migration 0016), recounted from the card's rows on every change; never written by the application.
     */
    livingMembers: integer("living_members").notNull().default(0),
    vehicleCount: integer("vehicle_count").notNull().default(0),
  },
  (t) => [
    uniqueIndex("family_cards_kk_number_uq").on(t.kkNumber),
    index("family_cards_unit_idx").on(t.unitId),
    index("family_cards_status_idx").on(t.status),
    // The statistics' pass over active cards reads the kept counts from the index alone.
    index("family_cards_stats_idx").on(t.status, t.unitId, t.livingMembers, t.vehicleCount),
    // Holds every column the search's filters read, so the page's walk in id order never visits the
    // table for a card that does not match (listFamilyCards).
    index("family_cards_search_idx").on(t.id, t.unitId, t.status, t.searchText),
  ],
);

export const RELIGIONS = [
  "islam",
  "kristen",
  "katolik",
  "hindu",
  "buddha",
  "konghucu",
  "kepercayaan",
] as const;
export const EDUCATIONS = [
  "tidak_sekolah",
  "belum_tamat_sd",
  "sd",
  "smp",
  "sma",
  "d1_d2",
  "d3",
  "d4_s1",
  "s2",
  "s3",
] as const;
export const MARITAL_STATUSES = ["belum_kawin", "kawin", "cerai_hidup", "cerai_mati"] as const;
export const RESIDENCE_STATUSES = ["tetap", "kontrak", "kos"] as const;
export const VEHICLE_KINDS = ["motor", "mobil", "lainnya"] as const;
export const MUTATION_KINDS = ["lahir", "meninggal", "pindah_masuk", "pindah_keluar"] as const;
/** What a resident may ask to correct on a household member (`lainnya`: anything else, by hand). */
export const MEMBER_CORRECTION_FIELDS = [
  "name",
  "nik",
  "sex",
  "birthDate",
  "birthPlace",
  "religion",
  "education",
  "occupation",
  "maritalStatus",
  "citizenship",
  "residenceStatus",
  "lainnya",
] as const;
/**
 * Every kind of request a resident files with the secretariat: a member's field, or `rumah`, the house
 * the resident asks to be registered at (issue 44: a house is granted, not claimed). A `rumah` row's
 * value is the JSON `{"block","number"}` asked for, its `unit_id` the house the resident had then (none
 * for a newcomer).
 */
export const CORRECTION_FIELDS = [...MEMBER_CORRECTION_FIELDS, "rumah"] as const;

export const RELATIONSHIPS = [
  "kepala_keluarga",
  "suami",
  "istri",
  "anak",
  "menantu",
  "cucu",
  "orang_tua",
  "mertua",
  "famili_lain",
  "lainnya",
] as const;

/** A person on a family card; the head is a member too (relationship `kepala_keluarga`). */
export const familyMembers = sqliteTable(
  "family_members",
  {
    id: text("id").primaryKey(),
    /** ETag and If-Match (ADR 0035); moved by a trigger, never set here. */
    rowVersion: rowVersion(),
    familyCardId: text("family_card_id").notNull(),
    name: text("name").notNull(),
    nik: text("nik").notNull(),
    relationship: text("relationship", { enum: RELATIONSHIPS }).notNull(),
    sex: text("sex", { enum: ["L", "P"] }).notNull(),
    birthDate: text("birth_date"),
    birthPlace: text("birth_place"),
    religion: text("religion", { enum: RELIGIONS }),
    education: text("education", { enum: EDUCATIONS }),
    occupation: text("occupation"),
    maritalStatus: text("marital_status", { enum: MARITAL_STATUSES }),
    citizenship: text("citizenship", { enum: ["WNI", "WNA"] })
      .notNull()
      .default("WNI"),
    livingStatus: text("living_status", { enum: ["hidup", "meninggal"] })
      .notNull()
      .default("hidup"),
    deathDate: text("death_date"),
    residenceStatus: text("residence_status", { enum: RESIDENCE_STATUSES }),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("family_members_nik_uq").on(t.nik),
    index("family_members_card_idx").on(t.familyCardId, t.id),
    // Search scans names: a covering index is a third of the table's width.
    index("family_members_name_idx").on(t.name, t.familyCardId),
    // The statistics read the trigger-kept tallies (registry_counts, registry_birth_months below); only
    // the age bands' edge months read the birth-date index. (Migration 0024 dropped the index on sex,
    // religion and statuses their first pass counted on.) Never lead an index by the living status: a
    // lookup of one card's living members must keep choosing the card index.
    index("family_members_birth_idx").on(t.birthDate, t.livingStatus),
  ],
);

/**
 * The registry's kept tally (issue 32): members of active cards by living status, sex, religion and
 * residence status, none of them ever more than a few hundred rows whatever the number of persons.
 * Kept by the database's own triggers on family_members and family_cards (migration 0019), so the
 * import, an archive restore and plain SQL keep it too; never written by the application. No religion
 * or residence is `''` (the key of a primary key cannot be null). A row at zero is deleted, so an empty
 * registry leaves the table empty. Archives leave it out: a restore rebuilds it through these triggers
 * from the members it writes (platform-ops/tables.ts `keptByTriggers`); the primary key's
 * `ON CONFLICT IGNORE` (migration 0019) also drops a copy an older archive might carry.
 */
export const registryCounts = sqliteTable(
  "registry_counts",
  {
    livingStatus: text("living_status").notNull(),
    sex: text("sex").notNull(),
    religion: text("religion").notNull(),
    residenceStatus: text("residence_status").notNull(),
    persons: integer("persons").notNull(),
  },
  (t) => [primaryKey({ columns: [t.livingStatus, t.sex, t.religion, t.residenceStatus] })],
);

/**
 * Living members of active cards by birth month (the first seven characters of the birth date,
 * `YYYY-MM`), kept like `registry_counts`; members with no birth date are not in it. The age bands sum
 * whole months from it and count only the month of each band edge person by person (statistik.ts).
 */
export const registryBirthMonths = sqliteTable(
  "registry_birth_months",
  {
    birthMonth: text("birth_month").primaryKey(),
    persons: integer("persons").notNull(),
  },
  // The age bands' range sums read this index alone, never the table's rows.
  (t) => [index("registry_birth_months_sum_idx").on(t.birthMonth, t.persons)],
);

/**
 * Active cards per block of their unit, with the cards' kept living members and vehicles summed: the
 * statistics' per-block figures and totals as a few dozen rows (issue 32). Kept by the database's own
 * triggers on family_cards (added, removed, or a change of status, unit or kept counts) and units (added,
 * removed, or a change of block), migration 0022; never written by the application. A block with no
 * active card has no row. Like `registry_counts`, archives leave it out and a restore rebuilds it.
 */
export const unitsBlockCounts = sqliteTable("units_block_counts", {
  block: text("block").primaryKey(),
  families: integer("families").notNull(),
  persons: integer("persons").notNull(),
  vehicles: integer("vehicles").notNull(),
});

/**
 * A vehicle kept by a household. The plate is kept in its display form (`B 1234 XYZ`, src/core/plate.ts)
 * and compared by its key (`B1234XYZ`), which is unique in the tenant among the vehicles not waiting
 * for the secretary's review (ADR 0047).
 */
export const vehicles = sqliteTable(
  "vehicles",
  {
    id: text("id").primaryKey(),
    /** ETag and If-Match (ADR 0035); moved by a trigger, never set here. */
    rowVersion: rowVersion(),
    familyCardId: text("family_card_id").notNull(),
    plate: text("plate").notNull(),
    /**
     * The plate without spaces, dashes or case (`plateKey`): what the uniqueness rule and the search
     * compare. A row written without it (the seed, an archive from before migration 0034) gets it from
     * the trigger `vehicles_plate_key_fill`, which flags it as a duplicate rather than failing.
     */
    plateKey: text("plate_key"),
    /**
     * True for a vehicle whose plate another vehicle of the tenant already had when it was found
     * (migration 0034, or a row written without a key): listed for the secretary by
     * `GET /api/kependudukan/vehicles/duplicates` until its plate is corrected or one of them removed.
     */
    plateDuplicate: integer("plate_duplicate", { mode: "boolean" }).notNull().default(false),
    kind: text("kind", { enum: VEHICLE_KINDS }).notNull(),
    brand: text("brand"),
    model: text("model"),
    colour: text("colour"),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("vehicles_plate_key_uq").on(t.plateKey).where(sql`${t.plateDuplicate} = 0`),
    index("vehicles_plate_key_idx").on(t.plateKey, t.plateDuplicate),
    index("vehicles_card_idx").on(t.familyCardId, t.id),
    // The secretary's list of flagged plates walks only the flagged vehicles in id order (a handful),
    // not every vehicle of the community checking its flag (issue 49: two scans of 6,000 a request).
    index("vehicles_duplicates_idx").on(t.id).where(sql`${t.plateDuplicate} = 1`),
  ],
);

/**
 * The log of life events (mutasi). Each row records what changed in the registry, on which calendar
 * day it happened (`date`) and who recorded it; names only, never a NIK or KK number.
 */
export const mutations = sqliteTable(
  "mutations",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: MUTATION_KINDS }).notNull(),
    date: text("date").notNull(),
    familyCardId: text("family_card_id").notNull(),
    memberId: text("member_id"),
    personName: text("person_name").notNull(),
    /** Where from (pindah_masuk) or where to (pindah_keluar), the cause, anything staff note. */
    place: text("place"),
    note: text("note"),
    recordedBy: text("recorded_by"),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
  },
  (t) => [index("mutations_date_idx").on(t.date, t.id), index("mutations_card_idx").on(t.familyCardId)],
);

/**
 * A resident's proposed correction of their household's data. `memberId` names the person; without
 * it (`field` = `lainnya`) it is a free request staff handle by hand. The proposed value can be
 * personal data (a NIK): it is never copied to the audit log.
 */
export const corrections = sqliteTable(
  "corrections",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    /** The resident's house when they asked; null only for a `rumah` request of someone with none. */
    unitId: text("unit_id"),
    memberId: text("member_id"),
    field: text("field", { enum: CORRECTION_FIELDS }).notNull(),
    value: text("value").notNull(),
    note: text("note"),
    status: text("status", { enum: ["diajukan", "diterima", "ditolak"] })
      .notNull()
      .default("diajukan"),
    reason: text("reason"),
    decidedBy: text("decided_by"),
    decidedAt: text("decided_at"),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
  },
  (t) => [
    index("corrections_status_idx").on(t.status, t.id),
    index("corrections_user_idx").on(t.userId, t.id),
  ],
);
