import { z } from "zod";
import { ListQuery } from "../../core/db/paging";
import { Block, HouseNumber, Line, Paragraph, PhoneNumber, Plate } from "../../core/schemas";
import {
  EDUCATIONS,
  KK_STATUSES,
  MARITAL_STATUSES,
  MUTATION_KINDS,
  OCCUPANCIES,
  RELATIONSHIPS,
  RELIGIONS,
  RESIDENCE_STATUSES,
  VEHICLE_KINDS,
} from "./tables";

const Latitude = z.number().min(-90).max(90).describe("Given together with longitude, or not at all");
const Longitude = z.number().min(-180).max(180).describe("Given together with latitude, or not at all");

export const Unit = z
  .object({
    id: z.string(),
    block: z.string(),
    number: z.string(),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    occupancy: z.enum(OCCUPANCIES).nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Unit");

export const CreateUnitInput = z
  .object({
    block: Block,
    number: HouseNumber,
    latitude: Latitude.optional(),
    longitude: Longitude.optional(),
    occupancy: z.enum(OCCUPANCIES).optional(),
  })
  .refine((v) => (v.latitude === undefined) === (v.longitude === undefined), {
    message: "latitude and longitude go together",
    path: ["latitude"],
  });
export type CreateUnitInput = z.infer<typeof CreateUnitInput>;

/** Partial: send what changes; `null` clears the coordinates (both) or the occupancy. */
export const UpdateUnitInput = z
  .object({
    block: Block.optional(),
    number: HouseNumber.optional(),
    latitude: Latitude.nullable().optional(),
    longitude: Longitude.nullable().optional(),
    occupancy: z.enum(OCCUPANCIES).nullable().optional(),
  })
  .refine((v) => (v.latitude === undefined) === (v.longitude === undefined), {
    message: "latitude and longitude go together",
    path: ["latitude"],
  })
  .refine((v) => (v.latitude === null) === (v.longitude === null), {
    message: "latitude and longitude are cleared together",
    path: ["latitude"],
  });
export type UpdateUnitInput = z.infer<typeof UpdateUnitInput>;

export const UnitListQuery = ListQuery.extend({
  block: Block.optional(),
  /** `geojson`: every unit with coordinates as a GeoJSON FeatureCollection (also `Accept: application/geo+json`). */
  format: z.enum(["json", "geojson"]).optional(),
});
export type UnitListQuery = z.infer<typeof UnitListQuery>;

export const UnitFeatureCollection = z
  .object({
    type: z.literal("FeatureCollection"),
    features: z.array(
      z.object({
        type: z.literal("Feature"),
        id: z.string(),
        geometry: z.object({ type: z.literal("Point"), coordinates: z.tuple([z.number(), z.number()]) }),
        properties: z.object({
          block: z.string(),
          number: z.string(),
          occupancy: z.enum(OCCUPANCIES).nullable(),
          families: z.number().int(),
          persons: z.number().int(),
        }),
      }),
    ),
  })
  .openapi("UnitFeatureCollection");

const Digits16 = (what: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{16}$/, `${what} is 16 digits`)
    .describe(
      `${what}: 16 digits whose region, date and (for a NIK) sex codes must hold and agree with the person (400 \`invalid_nik\` or \`invalid_kk_number\` otherwise)`,
    );
const Day = z.iso.date();

/** The KK fields of a person, shared by create, update, the import and the mutasi. */
const personFields = {
  religion: z.enum(RELIGIONS),
  education: z.enum(EDUCATIONS),
  occupation: Line(80),
  maritalStatus: z.enum(MARITAL_STATUSES),
  citizenship: z.enum(["WNI", "WNA"]),
  residenceStatus: z.enum(RESIDENCE_STATUSES),
};

export const MemberInput = z.object({
  name: Line(120, 2),
  nik: Digits16("NIK"),
  relationship: z.enum(RELATIONSHIPS).exclude(["kepala_keluarga"]),
  sex: z.enum(["L", "P"]),
  birthDate: Day.optional(),
  birthPlace: Line(80, 2).optional(),
  religion: personFields.religion.optional(),
  education: personFields.education.optional(),
  occupation: personFields.occupation.optional(),
  maritalStatus: personFields.maritalStatus.optional(),
  citizenship: personFields.citizenship.optional(),
  residenceStatus: personFields.residenceStatus.optional(),
});
export type MemberInput = z.infer<typeof MemberInput>;

/** Partial; `null` clears an optional field. The head is changed by giving another member `kepala_keluarga`. */
export const UpdateMemberInput = z.object({
  name: Line(120, 2).optional(),
  nik: Digits16("NIK").optional(),
  relationship: z.enum(RELATIONSHIPS).optional(),
  sex: z.enum(["L", "P"]).optional(),
  birthDate: Day.nullable().optional(),
  birthPlace: Line(80, 2).nullable().optional(),
  religion: personFields.religion.nullable().optional(),
  education: personFields.education.nullable().optional(),
  occupation: personFields.occupation.nullable().optional(),
  maritalStatus: personFields.maritalStatus.nullable().optional(),
  citizenship: personFields.citizenship.optional(),
  residenceStatus: personFields.residenceStatus.nullable().optional(),
  livingStatus: z.enum(["hidup", "meninggal"]).optional(),
});
export type UpdateMemberInput = z.infer<typeof UpdateMemberInput>;

/** The head's WhatsApp, stored as international digits (ADR 0047). */
const Whatsapp = PhoneNumber;

export const CreateFamilyCardInput = z.object({
  kkNumber: Digits16("The KK number"),
  unitId: z.string().min(1).max(64),
  headName: Line(120, 2),
  headNik: Digits16("NIK"),
  headSex: z.enum(["L", "P"]),
  headBirthDate: Day.optional(),
  headBirthPlace: Line(80, 2).optional(),
  headWhatsapp: Whatsapp.optional(),
  headReligion: personFields.religion.optional(),
  headEducation: personFields.education.optional(),
  headOccupation: personFields.occupation.optional(),
  headMaritalStatus: personFields.maritalStatus.optional(),
  headCitizenship: personFields.citizenship.optional(),
  headResidenceStatus: personFields.residenceStatus.optional(),
  notes: Paragraph(1000).optional(),
});
export type CreateFamilyCardInput = z.infer<typeof CreateFamilyCardInput>;

/** Partial. A status change to `pindah` or `meninggal` dates itself today unless `statusDate` is given. */
export const UpdateFamilyCardInput = z.object({
  kkNumber: Digits16("The KK number").optional(),
  unitId: z.string().min(1).max(64).optional(),
  headWhatsapp: Whatsapp.nullable().optional(),
  status: z.enum(KK_STATUSES).optional(),
  statusDate: Day.optional(),
  notes: Paragraph(1000).nullable().optional(),
});
export type UpdateFamilyCardInput = z.infer<typeof UpdateFamilyCardInput>;

export const FamilyCardListQuery = ListQuery.extend({
  unitId: z.string().max(64).optional(),
  status: z.enum(KK_STATUSES).optional(),
  /** A member's name (contains) or NIK (starts with), the KK number (starts with), a plate, or a block. */
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
    religion: z.enum(RELIGIONS).nullable(),
    education: z.enum(EDUCATIONS).nullable(),
    occupation: z.string().nullable(),
    maritalStatus: z.enum(MARITAL_STATUSES).nullable(),
    citizenship: z.enum(["WNI", "WNA"]),
    livingStatus: z.enum(["hidup", "meninggal"]),
    deathDate: z.string().nullable(),
    residenceStatus: z.enum(RESIDENCE_STATUSES).nullable(),
  })
  .openapi("FamilyMember");

export const Vehicle = z
  .object({
    id: z.string(),
    familyCardId: z.string(),
    plate: z
      .string()
      .describe("In the standard spaced form (`B 1234 XYZ`); another shape as typed, upper case"),
    plateDuplicate: z
      .boolean()
      .describe(
        "Another vehicle of the community had this plate first: waiting for the secretary to correct or remove one (GET /api/kependudukan/vehicles/duplicates)",
      ),
    kind: z.enum(VEHICLE_KINDS),
    brand: z.string().nullable(),
    model: z.string().nullable(),
    colour: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("Vehicle");

/** A vehicle in the duplicate-plate report: its plate as it was typed, and its card's head. */
const ReportedVehicle = Vehicle.extend({
  typed: z.string().describe("The plate as it was typed and stored, before the comparison by key"),
  headName: z.string().nullable().describe("The head of the vehicle's family card"),
});
export const PlateDuplicate = ReportedVehicle.extend({
  samePlate: z
    .array(ReportedVehicle)
    .describe("Every other vehicle with the same plate, the one that had it first among them"),
}).openapi("PlateDuplicate");

export const VehicleInput = z.object({
  plate: Plate,
  kind: z.enum(VEHICLE_KINDS),
  brand: Line(40).optional(),
  model: Line(60).optional(),
  colour: Line(30).optional(),
});
export type VehicleInput = z.infer<typeof VehicleInput>;

export const UpdateVehicleInput = z.object({
  plate: Plate.optional(),
  kind: z.enum(VEHICLE_KINDS).optional(),
  brand: Line(40).nullable().optional(),
  model: Line(60).nullable().optional(),
  colour: Line(30).nullable().optional(),
});
export type UpdateVehicleInput = z.infer<typeof UpdateVehicleInput>;

const unitRef = z.object({ id: z.string(), block: z.string(), number: z.string() }).nullable();

export const FamilyCardSummary = z
  .object({
    id: z.string(),
    kkNumber: z.string(),
    unitId: z.string(),
    unit: unitRef,
    headName: z.string(),
    headNik: z.string(),
    status: z.enum(KK_STATUSES),
    statusDate: z.string().nullable(),
    memberCount: z.number().int(),
    createdAt: z.string(),
  })
  .openapi("FamilyCardSummary");

export const FamilyCardDetail = FamilyCardSummary.extend({
  headWhatsapp: z.string().nullable(),
  notes: z.string().nullable(),
  members: z.array(FamilyMember),
  vehicles: z.array(Vehicle),
}).openapi("FamilyCardDetail");

export const HouseholdMember = FamilyMember.extend({
  /** This is the caller: the person their account is linked to (never a match by name). */
  isMe: z.boolean(),
}).openapi("HouseholdMember");

export const Household = z
  .object({
    unitId: z.string(),
    unit: unitRef,
    /** The caller's own person (the account's link), null until the secretariat links the account. */
    personId: z.string().nullable(),
    members: z.array(HouseholdMember),
  })
  .openapi("Household");

export const MemberParams = z.object({ id: z.string().min(1).max(64), memberId: z.string().min(1).max(64) });
export const VehicleParams = z.object({
  id: z.string().min(1).max(64),
  vehicleId: z.string().min(1).max(64),
});

// ── Life events (mutasi) ────────────────────────────────────────────────────────────────────────────

const mutasiBase = { date: Day, note: Paragraph(500).optional() };

export const MutasiInput = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("lahir"),
    ...mutasiBase,
    familyCardId: z.string().min(1).max(64),
    name: Line(120, 2),
    nik: Digits16("NIK"),
    sex: z.enum(["L", "P"]),
    birthPlace: Line(80, 2).optional(),
    relationship: z.enum(RELATIONSHIPS).exclude(["kepala_keluarga"]).default("anak"),
    religion: personFields.religion.optional(),
  }),
  z.object({
    kind: z.literal("meninggal"),
    ...mutasiBase,
    memberId: z.string().min(1).max(64),
    place: Line(120).optional(),
  }),
  CreateFamilyCardInput.extend({
    kind: z.literal("pindah_masuk"),
    ...mutasiBase,
    /** Where the family comes from. */
    place: Line(120).optional(),
  }),
  z.object({
    kind: z.literal("pindah_keluar"),
    ...mutasiBase,
    familyCardId: z.string().min(1).max(64),
    /** Where the family goes. */
    place: Line(120).optional(),
  }),
]);
export type MutasiInput = z.infer<typeof MutasiInput>;

export const Mutasi = z
  .object({
    id: z.string(),
    kind: z.enum(MUTATION_KINDS),
    date: z.string(),
    familyCardId: z.string(),
    memberId: z.string().nullable(),
    personName: z.string(),
    place: z.string().nullable(),
    note: z.string().nullable(),
    recordedBy: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("Mutasi");

export const MutasiListQuery = ListQuery.extend({
  kind: z.enum(MUTATION_KINDS).optional(),
  /** Calendar days (Asia/Jakarta), inclusive, on the day the event happened. */
  from: Day.optional(),
  to: Day.optional(),
  familyCardId: z.string().max(64).optional(),
});
export type MutasiListQuery = z.infer<typeof MutasiListQuery>;

// ── Statistics ──────────────────────────────────────────────────────────────────────────────────────

export * from "./schemas-ops";
