import { z } from "zod";
import { IndonesianMobile } from "../../core/schemas";

const Status = z.enum(["menunggu", "disetujui", "ditolak"]);

export const ApplicationInput = z.object({
  fullName: z.string().trim().min(2).max(120),
  email: z
    .email()
    .max(254)
    .transform((v) => v.trim().toLowerCase())
    .optional(),
  whatsapp: IndonesianMobile,
  block: z.string().trim().min(1).max(20),
  houseNumber: z.string().trim().min(1).max(20),
  /** Nomor Kartu Keluarga: 16 digits. */
  kkNumber: z
    .string()
    .regex(/^\d{16}$/, "16 digits")
    .optional(),
  note: z.string().trim().max(500).optional(),
  /** Honeypot: hidden in the form, so only bots fill it. */
  website: z.string().max(500).optional(),
});
export type ApplicationInput = z.infer<typeof ApplicationInput>;

export const SlugParam = z.object({ slug: z.string().min(1).max(64) });

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

export const ApplicationListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(64).optional(),
  status: Status.optional(),
});
export type ApplicationListQuery = z.infer<typeof ApplicationListQuery>;

export const DecisionInput = z.object({
  status: z.enum(["disetujui", "ditolak"]),
  reason: z.string().trim().min(1).max(500).optional(),
});
export type DecisionInput = z.infer<typeof DecisionInput>;

const Invitation = z.object({
  channel: z.enum(["email", "whatsapp"]).nullable(),
  sent: z.boolean(),
});

export const DecisionResult = z
  .object({ application: Application, invitation: Invitation.nullable() })
  .openapi("ApplicationDecision");

export const Resident = z
  .object({
    userId: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    whatsapp: z.string().nullable(),
    unit: z.object({ id: z.string(), block: z.string(), number: z.string() }).nullable(),
    hasPassword: z.boolean(),
    joinedAt: z.string(),
  })
  .openapi("Resident");

export const ResidentListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(64).optional(),
});
export type ResidentListQuery = z.infer<typeof ResidentListQuery>;

export const CredentialsResetResult = Invitation.openapi("CredentialsReset");
