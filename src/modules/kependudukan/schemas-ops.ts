import { z } from "zod";
import { ListQuery } from "../../core/db/paging";
import { Line, Paragraph } from "../../core/schemas";
import { CORRECTION_FIELDS, MEMBER_CORRECTION_FIELDS } from "./tables";

/** The registry's statistics, its spreadsheet exchange and residents' correction requests. */
const Tally = z.array(z.object({ key: z.string(), count: z.number().int() }));

export const Statistik = z
  .object({
    totalFamilies: z.number().int(),
    totalPersons: z.number().int(),
    totalVehicles: z.number().int(),
    perBlock: z.array(
      z.object({
        block: z.string(),
        families: z.number().int(),
        persons: z.number().int(),
        vehicles: z.number().int(),
      }),
    ),
    sex: Tally,
    ageGroups: Tally,
    religion: Tally,
    residenceStatus: Tally,
    livingStatus: Tally,
  })
  .openapi("RegistryStatistics");

export const ExportQuery = z.object({ format: z.enum(["xlsx", "csv"]).default("xlsx") });
export const ImportQuery = z.object({
  dryRun: z
    .enum(["true", "false"])
    .default("true")
    .transform((v) => v === "true"),
});

export const ImportReport = z
  .object({
    dryRun: z.boolean(),
    ok: z.boolean(),
    rows: z.number().int(),
    families: z.number().int(),
    members: z.number().int(),
    vehicles: z.number().int(),
    units: z.number().int(),
    written: z.boolean(),
    errors: z.array(
      z.object({ sheet: z.string(), row: z.number().int(), field: z.string(), message: z.string() }),
    ),
  })
  .openapi("RegistryImportReport");

// ── Resident corrections ────────────────────────────────────────────────────────────────────────────

export const CorrectionInput = z
  .object({
    memberId: z.string().min(1).max(64).optional(),
    /** A member's field or `lainnya`; the house (`rumah`) is asked for through the profile. */
    field: z.enum(MEMBER_CORRECTION_FIELDS),
    value: Line(200),
    note: Paragraph(1000).optional(),
  })
  .refine((v) => (v.field === "lainnya") === (v.memberId === undefined), {
    message: "a member's field needs memberId; `lainnya` (anything else) goes without",
    path: ["memberId"],
  });
export type CorrectionInput = z.infer<typeof CorrectionInput>;

export const DecideCorrectionInput = z
  .object({ status: z.enum(["diterima", "ditolak"]), reason: Paragraph(500).optional() })
  .refine((v) => v.status === "diterima" || v.reason !== undefined, {
    message: "a rejection needs a reason",
    path: ["reason"],
  });
export type DecideCorrectionInput = z.infer<typeof DecideCorrectionInput>;

export const Correction = z
  .object({
    id: z.string(),
    userId: z.string(),
    /** The resident's house when they asked; null for a newcomer's `rumah` request. */
    unitId: z.string().nullable(),
    memberId: z.string().nullable(),
    memberName: z.string().nullable(),
    /** A member's field, `lainnya`, or `rumah`: the house the resident asks to be registered at. */
    field: z.enum(CORRECTION_FIELDS),
    /** A proposed NIK is masked for everyone but the secretary and admin; `rumah`: "Blok B No. 12". */
    value: z.string(),
    /** The house asked for, on a `rumah` request only. */
    house: z.object({ block: z.string(), number: z.string() }).nullable(),
    note: z.string().nullable(),
    status: z.enum(["diajukan", "diterima", "ditolak"]),
    reason: z.string().nullable(),
    decidedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("Correction");

export const CorrectionListQuery = ListQuery.extend({
  status: z.enum(["diajukan", "diterima", "ditolak"]).optional(),
  field: z.enum(CORRECTION_FIELDS).optional(),
});
export type CorrectionListQuery = z.infer<typeof CorrectionListQuery>;
