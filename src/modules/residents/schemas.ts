import { z } from "zod";
import { ListQuery } from "../../core/db/paging";
import {
  Block,
  Email,
  HouseNumber,
  IndonesianMobile,
  InvitationOutcome,
  Line,
  Paragraph,
  Slug,
} from "../../core/schemas";

const Status = z.enum(["menunggu", "disetujui", "ditolak"]);

export const ApplicationInput = z.object({
  fullName: Line(120, 2),
  email: Email.optional(),
  whatsapp: IndonesianMobile,
  block: Block,
  houseNumber: HouseNumber,
  /** Nomor Kartu Keluarga: 16 digits. */
  kkNumber: z
    .string()
    .regex(/^\d{16}$/, "16 digits")
    .optional(),
  note: Paragraph(500, 0).optional(),
  /** Honeypot: hidden in the form, so only bots fill it. */
  website: z.string().max(500).optional(),
});
export type ApplicationInput = z.infer<typeof ApplicationInput>;

export const SlugParam = z.object({ slug: Slug });

export const ApplicationAccepted = z.object({ status: z.literal("menunggu") }).openapi("ApplicationAccepted");

export const Application = z
  .object({
    id: z.string(),
    fullName: z.string(),
    email: z.string().nullable(),
    whatsapp: z.string(),
    block: z.string(),
    houseNumber: z.string(),
    kkNumber: z.string().nullable(),
    note: z.string().nullable(),
    status: Status,
    reason: z.string().nullable(),
    decidedBy: z.string().nullable(),
    decidedAt: z.string().nullable(),
    userId: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("ResidentApplication");

export const ApplicationListQuery = ListQuery.extend({ status: Status.optional() });
export type ApplicationListQuery = z.infer<typeof ApplicationListQuery>;

export const DecisionInput = z
  .object({
    status: z.enum(["disetujui", "ditolak"]),
    reason: Paragraph(500).optional(),
    /**
     * On approval: the applicant's own person on a family card at the applied-for house (from the
     * registry), so the new account is linked to it. Without it the account stays unlinked until the
     * secretariat links it (PUT /api/members/:userId/person).
     */
    personId: z.string().trim().min(1).max(64).optional(),
  })
  .refine((d) => d.status === "disetujui" || d.personId === undefined, {
    path: ["personId"],
    message: "only an approval links a person",
  });
export type DecisionInput = z.infer<typeof DecisionInput>;

const Invitation = InvitationOutcome;

export const DecisionResult = z
  .object({ application: Application, invitation: Invitation.nullable() })
  .openapi("ApplicationDecision");

export const Resident = z
  .object({
    userId: z.string(),
    name: z.string(),
    /** Whole for admins; masked (`d***@warga.test`) for other staff. */
    email: z.string().nullable(),
    /** Whole for admins; masked (`6281*******90`) for other staff. */
    whatsapp: z.string().nullable(),
    unit: z.object({ id: z.string(), block: z.string(), number: z.string() }).nullable(),
    hasPassword: z.boolean(),
    joinedAt: z.string(),
  })
  .openapi("Resident");

export const ResidentListQuery = ListQuery;
export type ResidentListQuery = z.infer<typeof ResidentListQuery>;

export const CredentialsResetResult = Invitation.openapi("CredentialsReset");
