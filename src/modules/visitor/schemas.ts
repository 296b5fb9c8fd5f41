import { z } from "zod";
import { ListQuery } from "../../core/db/paging";
import { binaryPart } from "../../core/http/openapi";
import { Line, Paragraph, PLATE_RULE, Plate } from "../../core/schemas";
import { APPROVAL_METHODS, REGULAR_ROLES, VISIT_CATEGORIES } from "./tables";

export const CreateVisitorInput = z.object({
  guestName: Line(120, 2),
  purpose: Line(500, 2),
  visitAt: z.iso.datetime({ offset: true }),
  vehiclePlate: Plate.optional().describe(
    `${PLATE_RULE}. Required unless the community's setting says it does not record it (GET ` +
      "/api/visitor/settings `requireVehiclePlate`); left out where required: 400 `invalid_input` with a " +
      "field error",
  ),
  identity: Line(100)
    .optional()
    .describe(
      "What the guest identifies with (e.g. KTP number). Required unless the community's setting says it " +
        "does not record it (GET /api/visitor/settings `requireIdentity`); left out where required: 400 " +
        "`invalid_input` with a field error",
    ),
  stayUntil: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "YYYY-MM-DD")
    .optional()
    .describe(
      "For a stay of several days: its last day (Asia/Jakarta), at most 30 days after the visit (400 " +
        "`stay_too_long`). The pass then runs to the end of that day and lets the guest out and in again",
    ),
});
export type CreateVisitorInput = z.infer<typeof CreateVisitorInput>;

/** A guest who came to the gate without a registration (issue 45), registered there by the guard. */
export const WalkInInput = z.object({
  guestName: Line(120, 2),
  category: z
    .enum(VISIT_CATEGORIES)
    .describe("Who the guest is: tamu, ojol (ride or food driver), kurir, keluarga, layanan, lainnya"),
  purpose: Line(500, 2)
    .optional()
    .describe("What for, in the guest's words; the category alone when left out"),
  vehiclePlate: Plate.optional(),
  identity: Line(100).optional(),
  block: Line(20, 1).describe("The host's house: its block, as the registry writes it"),
  number: Line(20, 1).describe("The host's house: its number"),
});
export type WalkInInput = z.infer<typeof WalkInInput>;

/** The host's answer to a walk-in, from their phone. */
export const HostDecisionInput = z.object({
  status: z.enum(["disetujui", "ditolak"]),
  note: Paragraph(500, 0).optional(),
});
export type HostDecisionInput = z.infer<typeof HostDecisionInput>;

export const VisitorSettings = z
  .object({
    requireVehiclePlate: z.boolean().describe("A registration must give the guest's vehicle plate"),
    requireIdentity: z.boolean().describe("A registration must give the guest's identity"),
    updatedAt: z.string().nullable(),
  })
  .openapi("VisitorSettings");

export const VisitorSettingsInput = z
  .object({ requireVehiclePlate: z.boolean().optional(), requireIdentity: z.boolean().optional() })
  .refine((v) => Object.keys(v).length > 0, { message: "nothing to change" });
export type VisitorSettingsInput = z.infer<typeof VisitorSettingsInput>;

export const DecideVisitorInput = z
  .object({
    status: z.enum(["disetujui", "ditolak"]),
    note: Paragraph(500, 0).optional(),
    validFrom: z.iso
      .datetime({ offset: true })
      .optional()
      .describe("Given together with validUntil, or not at all"),
    validUntil: z.iso
      .datetime({ offset: true })
      .optional()
      .describe("Given together with validFrom, or not at all"),
  })
  .refine((v) => (v.validFrom === undefined) === (v.validUntil === undefined), {
    message: "validFrom and validUntil go together",
    path: ["validFrom"],
  });
export type DecideVisitorInput = z.infer<typeof DecideVisitorInput>;

export const GateScanInput = z
  .object({
    qr: z.string().min(10).max(2000).optional().describe("The pass as its QR carries it"),
    code: z
      .string()
      .min(8)
      .max(20)
      .optional()
      .describe(
        "The pass's short code (`passCode`, e.g. `K7QX-2M9D`; case, spaces and dashes do not matter), typed " +
          "by the guard when the QR cannot be scanned",
      ),
    visitorId: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe(
        "The registration itself, from the guard's list: a check-in only for an approved walk-in (no pass " +
          "to scan; else 400 `not_walk_in`), a check-out for anyone inside",
      ),
  })
  .refine((v) => [v.qr, v.code, v.visitorId].filter((x) => x !== undefined).length === 1, {
    message: "give one of qr, code or visitorId",
    path: ["qr"],
  });

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "YYYY-MM-DD");
export const VisitorListQuery = ListQuery.extend({
  status: z.enum(["menunggu", "disetujui", "ditolak"]).optional(),
  from: Day.optional(),
  to: Day.optional(),
  inside: z.enum(["true", "false"]).optional(),
});
export type VisitorListQuery = z.infer<typeof VisitorListQuery>;

export const MineQuery = ListQuery;

export const Visitor = z
  .object({
    id: z.string(),
    residentId: z.string(),
    residentName: z.string().nullable().optional(),
    unitId: z.string().nullable(),
    guestName: z.string(),
    purpose: z.string(),
    visitAt: z.string(),
    vehiclePlate: z.string().nullable(),
    identity: z.string().nullable(),
    status: z.enum(["menunggu", "disetujui", "ditolak"]),
    note: z.string().nullable(),
    decidedAt: z.string().nullable(),
    passValidFrom: z.string().nullable(),
    passValidUntil: z.string().nullable(),
    /** The signed pass the QR carries, for apps that draw their own QR (approved requests only). */
    pass: z.string().nullable().optional(),
    /** The pass's short code, for the guard to type when the QR cannot be scanned (with `pass`). */
    passCode: z.string().nullable().optional(),
    notificationPending: z.boolean(),
    checkedInAt: z.string().nullable(),
    checkedOutAt: z.string().nullable(),
    inside: z.boolean(),
    createdAt: z.string(),
    walkIn: z.boolean().describe("Registered at the gate by the guard (issue 45), not by the resident"),
    category: z.enum(VISIT_CATEGORIES).nullable(),
    stayUntil: z.string().nullable(),
    approvalMethod: z
      .enum(APPROVAL_METHODS)
      .nullable()
      .describe(
        "pengurus (staff), tuan_rumah (the host from their phone), telepon (the guard after calling the host)",
      ),
    multiEntry: z.boolean().describe("The pass lets its guest out and in again while it is valid"),
    regularId: z.string().nullable().describe("The regular visitor's card this visit entered on"),
    photoUrl: z
      .string()
      .nullable()
      .describe(
        "A walk-in's photo taken at the gate (GET, signed in: the gate, staff, the host's household)",
      ),
  })
  .openapi("VisitorRequest");

/** A walk-in's photo: one image in the multipart field `file`. */
export const multipartWalkInPhoto = {
  content: {
    "multipart/form-data": {
      schema: z.object({
        file: binaryPart("JPEG, PNG or WebP image, at most 5 MB; EXIF (GPS position) is stripped"),
      }),
    },
  },
};

export const GateResult = z
  .object({
    visitorId: z.string(),
    guestName: z.string(),
    checkedInAt: z.string().nullable(),
    checkedOutAt: z.string().nullable(),
  })
  .openapi("GateResult");

const TimeOfDay = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "HH:MM, 00:00 to 23:59");

export const RegularVisitorInput = z
  .object({
    name: Line(120, 2),
    role: z.enum(REGULAR_ROLES).describe("art (domestic help), sopir, pengasuh, tukang, lainnya"),
    vehiclePlate: Plate.optional(),
    days: z
      .array(z.number().int().min(1).max(7))
      .min(1)
      .max(7)
      .refine((d) => new Set(d).size === d.length, "each day once")
      .describe("ISO weekdays the visitor comes: 1 Monday … 7 Sunday"),
    fromTime: TimeOfDay.describe("From this time of day (Asia/Jakarta)"),
    untilTime: TimeOfDay.describe("Until this time of day (Asia/Jakarta), after fromTime"),
    validUntil: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, "YYYY-MM-DD")
      .optional()
      .describe("The card's last day; until revoked when left out"),
    block: Line(20, 1)
      .optional()
      .describe(
        "Staff only: the household's house (block, with `number`); a resident's card is for their own",
      ),
    number: Line(20, 1).optional().describe("Staff only: the house number, with `block`"),
  })
  .refine((v) => (v.block === undefined) === (v.number === undefined), {
    message: "block and number together",
    path: ["number"],
  })
  .refine((v) => v.untilTime > v.fromTime, { message: "untilTime after fromTime", path: ["untilTime"] });
export type RegularVisitorInput = z.infer<typeof RegularVisitorInput>;

export const RegularVisitor = z
  .object({
    id: z.string(),
    residentId: z.string(),
    unitId: z.string(),
    name: z.string(),
    role: z.enum(REGULAR_ROLES),
    vehiclePlate: z.string().nullable(),
    days: z.array(z.number().int()),
    fromTime: z.string(),
    untilTime: z.string(),
    validUntil: z.string().nullable(),
    revokedAt: z.string().nullable(),
    /** Whether the gate lets them in right now (inside a window, not revoked, not past its last day). */
    admittedNow: z.boolean(),
    createdAt: z.string(),
  })
  .openapi("RegularVisitor");
