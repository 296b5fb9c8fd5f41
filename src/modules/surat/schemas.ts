import { z } from "zod";
import { ListQuery } from "../../core/db/paging";
import { Line, Paragraph } from "../../core/schemas";
import { IDENTITY_FIELDS, JENIS_CODES } from "./jenis";
import { LETTER_STATUSES, RW_ACK_STATUSES } from "./tables";

const Day = z.iso.date();
const Jenis = z.enum(JENIS_CODES);

export const FieldsInput = z.record(z.string(), z.unknown());

export const CreateLetterInput = z.object({
  jenis: Jenis,
  /**
   * `self`, or the id of a member of the caller's household (GET /api/kependudukan/household). `self` is
   * the person on a family card the caller's account is linked to (409 `person_not_linked` until the
   * secretariat links it); the letter keeps that person's id.
   */
  onBehalfOf: z.string().trim().min(1).max(64),
  keperluan: Line(500, 3),
  fields: FieldsInput.default({}),
});
export type CreateLetterInput = z.infer<typeof CreateLetterInput>;

export const ResubmitLetterInput = z.object({
  onBehalfOf: z.string().trim().min(1).max(64).optional(),
  keperluan: Line(500, 3).optional(),
  fields: FieldsInput.optional(),
});
export type ResubmitLetterInput = z.infer<typeof ResubmitLetterInput>;

export const CancelLetterInput = z.object({ reason: Paragraph(500, 0).optional() });

export const UpdateLetterInput = z.object({
  status: z.enum(["diproses", "perlu_perbaikan", "selesai", "ditolak"]).optional(),
  nomorSurat: z.string().trim().min(1).max(80).optional(),
  tanggalSurat: Day.optional(),
  note: Paragraph(1000).optional(),
});
export type UpdateLetterInput = z.infer<typeof UpdateLetterInput>;

export const LetterListQuery = ListQuery.extend({
  status: z.enum(LETTER_STATUSES).optional(),
  jenis: Jenis.optional(),
  /** Request date, Asia/Jakarta calendar days, inclusive. */
  from: Day.optional(),
  to: Day.optional(),
});
export type LetterListQuery = z.infer<typeof LetterListQuery>;

export const NextNumberQuery = z.object({ jenis: Jenis, tanggal: Day.optional() });
export const NextNumber = z.object({
  nomorSurat: z.string(),
  sequence: z.number().int(),
  year: z.number().int(),
});

const Option = z.object({ value: z.string(), label: z.string() });
export const JenisItem = z
  .object({
    code: z.string(),
    name: z.string(),
    description: z.string(),
    validityDays: z.number().int().nullable(),
    identity: z
      .array(z.object({ name: z.enum(IDENTITY_FIELDS), label: z.string() }))
      .describe("The subject's particulars the letter prints, from the registry"),
    fields: z.array(
      z.object({
        name: z.string(),
        label: z.string(),
        type: z.string(),
        required: z.boolean(),
        options: z.array(Option).nullable(),
        requiredUnless: z.string().nullable(),
        pattern: z.string().nullable(),
      }),
    ),
  })
  .openapi("JenisSurat");
export const JenisList = z.object({ items: z.array(JenisItem) });

export const LetterEvent = z.object({
  status: z.string(),
  note: z.string().nullable(),
  byStaff: z.boolean(),
  createdAt: z.string(),
});

export const Letter = z
  .object({
    id: z.string(),
    jenis: z.string(),
    jenisName: z.string(),
    residentId: z.string(),
    residentName: z.string().nullable().optional(),
    onBehalfOf: z.string(),
    subjectName: z.string(),
    keperluan: z.string(),
    fields: z.record(z.string(), z.unknown()),
    status: z.enum(LETTER_STATUSES),
    nomorSurat: z.string().nullable(),
    tanggalSurat: z.string().nullable(),
    note: z.string().nullable(),
    verificationCode: z.string().nullable(),
    verificationUrl: z.string().nullable(),
    pdfAvailable: z
      .boolean()
      .describe("Whether the caller may download the PDF now (a resident not while it waits for the RW)"),
    awaitingRw: z
      .boolean()
      .describe("Finished, but waiting for the linked RW's acknowledgement before the resident gets it"),
    pdfVersion: z.number().int(),
    rwAcknowledgement: z
      .object({
        status: z.enum(RW_ACK_STATUSES),
        name: z.string().nullable(),
        title: z.string().nullable(),
        at: z.string().nullable(),
        reason: z
          .string()
          .nullable()
          .describe("Why the RW declined it (ditolak), or why the RT issued it without the RW (tanpa_rw)"),
      })
      .nullable()
      .describe(
        "The linked RW's Mengetahui; null when no RW acknowledges this letter. For tanpa_rw, `name` and " +
          "`at` say who of the RT issued it without the RW, and when",
      ),
    history: z.array(LetterEvent).optional(),
    subject: z
      .array(z.object({ name: z.enum(IDENTITY_FIELDS), label: z.string(), value: z.string() }))
      .optional()
      .describe(
        "Staff reading one letter only: the subject's particulars as this letter type prints them, from the " +
          "registry (an empty value where the registry lacks one)",
      ),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Letter");

/** What a letter needs set before it can be numbered or finished, in the order `missing` lists them. */
export const SETTING_NAMES = ["rt", "rw", "kelurahan", "kecamatan", "kota", "provinsi", "headName"] as const;
export type SettingName = (typeof SETTING_NAMES)[number];

const Short = (max: number) => Line(max).nullable().optional();
export const LetterSettingsInput = z.object({
  rt: z
    .string()
    .regex(/^\d{1,3}$/)
    .nullable()
    .optional(),
  rw: z
    .string()
    .regex(/^\d{1,3}$/)
    .nullable()
    .optional(),
  kelurahan: Short(80),
  villageKind: z.enum(["kelurahan", "desa"]).nullable().optional(),
  kecamatan: Short(80),
  kota: Short(80).describe("With its word, as printed: `Kabupaten Bogor`, `Kota Bandung`"),
  provinsi: Short(80),
  address: Short(300),
  logoDataUrl: z
    .string()
    .max(300_000)
    .regex(/^data:image\/(png|jpeg|svg\+xml);base64,[A-Za-z0-9+/=]+$/, "a base64 PNG, JPEG or SVG data: URL")
    .nullable()
    .optional(),
  headName: Short(120),
  headTitle: Short(120),
  numberFormat: Line(120, 5)
    .describe(
      "The letter number format: {seq} (or {seq:3}) exactly once and {year}; also {code}, {rt}, {rw}, {month} and {monthRoman}. Another placeholder is 400 `invalid_number_format`",
    )
    .nullable()
    .optional(),
  rwAcknowledgement: z
    .boolean()
    .nullable()
    .optional()
    .describe(
      "Finished letters wait for the linked RW's Mengetahui, and the RW's admin and sekretaris then see each one: the resident's name, the letter's type and purpose (keperluan), its number, date and signatory. Off unless set to true; false or null also takes waiting letters out of the RW's queue",
    ),
});
export type LetterSettingsInput = z.infer<typeof LetterSettingsInput>;

export const LetterSettings = z
  .object({
    tenantName: z.string(),
    rt: z.string().nullable(),
    rw: z.string().nullable(),
    kelurahan: z.string().nullable(),
    villageKind: z.enum(["kelurahan", "desa"]),
    kecamatan: z.string().nullable(),
    kota: z.string().nullable(),
    provinsi: z.string().nullable(),
    address: z.string().nullable(),
    logoDataUrl: z.string().nullable(),
    headName: z.string().nullable().describe("Unset: the name of the member holding admin"),
    headTitle: z.string(),
    numberFormat: z.string(),
    rwAcknowledgement: z
      .boolean()
      .describe("Whether finished letters now wait for the RW (only when linked and set to true)"),
    rwLinked: z.boolean(),
    missing: z
      .array(z.enum(SETTING_NAMES))
      .describe("Settings still unset that letters need: numbering and finishing answer 409 until set"),
    updatedAt: z.string().nullable(),
  })
  .openapi("LetterSettings");

export const RwAckListQuery = ListQuery.extend({ status: z.enum(RW_ACK_STATUSES).default("menunggu") });
export type RwAckListQuery = z.infer<typeof RwAckListQuery>;

export const DeclineAckInput = z.object({ reason: Paragraph(1000) });

/** The RT's reason for issuing a letter without the RW's acknowledgement (kept on the letter). */
export const IssueWithoutRwInput = z.object({ reason: Paragraph(1000) });

export const RwAckItem = z
  .object({
    letterId: z.string(),
    rt: z.object({ slug: z.string(), name: z.string() }),
    jenis: z.string(),
    jenisName: z.string(),
    nomorSurat: z.string().nullable(),
    tanggalSurat: z.string().nullable(),
    subjectName: z.string(),
    keperluan: z.string(),
    signatory: z.object({ name: z.string(), title: z.string() }).nullable(),
    status: z.enum(RW_ACK_STATUSES),
    acknowledgedBy: z.string().nullable(),
    acknowledgedAt: z.string().nullable(),
    reason: z.string().nullable(),
    finishedAt: z.string().nullable(),
  })
  .openapi("RwAcknowledgement");
