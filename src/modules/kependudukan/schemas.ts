import { z } from "zod";
import { ListQuery } from "../../core/db/paging";
import { Block, HouseNumber, Line } from "../../core/schemas";
import { RELATIONSHIPS } from "./tables";

export const Unit = z
  .object({
    id: z.string(),
    block: z.string(),
    number: z.string(),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Unit");

export const CreateUnitInput = z
  .object({
    block: Block,
    number: HouseNumber,
    latitude: z.number().min(-90).max(90).optional(),
    longitude: z.number().min(-180).max(180).optional(),
  })
  .refine((v) => (v.latitude === undefined) === (v.longitude === undefined), {
    message: "latitude and longitude go together",
    path: ["latitude"],
  });
export type CreateUnitInput = z.infer<typeof CreateUnitInput>;

export const UnitListQuery = ListQuery.extend({ block: Block.optional() });
export type UnitListQuery = z.infer<typeof UnitListQuery>;

const Digits16 = (what: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{16}$/, `${what} is 16 digits`);
const Day = z.iso.date();

export const MemberInput = z.object({
  name: Line(120, 2),
  nik: Digits16("NIK"),
  relationship: z.enum(RELATIONSHIPS).exclude(["kepala_keluarga"]),
  sex: z.enum(["L", "P"]),
  birthDate: Day.optional(),
  birthPlace: Line(80, 2).optional(),
});
export type MemberInput = z.infer<typeof MemberInput>;

export const CreateFamilyCardInput = z.object({
  kkNumber: Digits16("The KK number"),
  unitId: z.string().min(1).max(64),
  headName: Line(120, 2),
  headNik: Digits16("NIK"),
  headSex: z.enum(["L", "P"]),
  headBirthDate: Day.optional(),
  headBirthPlace: Line(80, 2).optional(),
  headWhatsapp: z
    .string()
    .trim()
    .regex(/^\+?\d{9,15}$/, "9 to 15 digits")
    .optional(),
});
export type CreateFamilyCardInput = z.infer<typeof CreateFamilyCardInput>;

export const FamilyCardListQuery = ListQuery.extend({
  unitId: z.string().max(64).optional(),
  /** Head's name (contains) or the KK number (starts with). */
  q: z.string().trim().min(1).max(60).optional(),
});
export type FamilyCardListQuery = z.infer<typeof FamilyCardListQuery>;

export const FamilyMember = z
  .object({
    id: z.string(),
    familyCardId: z.string(),
    name: z.string(),
    /** Whole only in staff detail views; masked (3201********0001) elsewhere. */
    nik: z.string(),
    relationship: z.enum(RELATIONSHIPS),
    sex: z.enum(["L", "P"]),
    birthDate: z.string().nullable(),
    birthPlace: z.string().nullable(),
  })
  .openapi("FamilyMember");

const unitRef = z.object({ id: z.string(), block: z.string(), number: z.string() }).nullable();

export const FamilyCardSummary = z
  .object({
    id: z.string(),
    kkNumber: z.string(),
    unitId: z.string(),
    unit: unitRef,
    headName: z.string(),
    headNik: z.string(),
    memberCount: z.number().int(),
    createdAt: z.string(),
  })
  .openapi("FamilyCardSummary");

export const FamilyCardDetail = FamilyCardSummary.extend({
  headWhatsapp: z.string().nullable(),
  members: z.array(FamilyMember),
}).openapi("FamilyCardDetail");

export const Household = z
  .object({ unitId: z.string(), unit: unitRef, members: z.array(FamilyMember) })
  .openapi("Household");
