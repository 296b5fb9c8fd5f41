import { sql } from "drizzle-orm";
import { index, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** A housing unit of the community: block plus house number, with its location for the map. */
export const units = sqliteTable(
  "units",
  {
    id: text("id").primaryKey(),
    block: text("block").notNull(),
    number: text("number").notNull(),
    latitude: real("latitude"),
    longitude: real("longitude"),
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
    kkNumber: text("kk_number").notNull(),
    unitId: text("unit_id").notNull(),
    headName: text("head_name").notNull(),
    headNik: text("head_nik").notNull(),
    headWhatsapp: text("head_whatsapp"),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("family_cards_kk_number_uq").on(t.kkNumber),
    index("family_cards_unit_idx").on(t.unitId),
  ],
);

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
    familyCardId: text("family_card_id").notNull(),
    name: text("name").notNull(),
    nik: text("nik").notNull(),
    relationship: text("relationship", { enum: RELATIONSHIPS }).notNull(),
    sex: text("sex", { enum: ["L", "P"] }).notNull(),
    birthDate: text("birth_date"),
    birthPlace: text("birth_place"),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("family_members_nik_uq").on(t.nik),
    index("family_members_card_idx").on(t.familyCardId, t.id),
  ],
);
