import { z } from "zod";
import { DUTIES } from "../../core/context";
import { ListQuery } from "../../core/db/paging";
import { Email, IndonesianMobile, InvitationOutcome, Line } from "../../core/schemas";

/** A duty in the community; `warga` (residency) and `super_admin` (the platform's) are not duties. */
const Duty = z.enum(DUTIES);
const Duties = z
  .array(Duty)
  .max(DUTIES.length)
  .refine((roles) => new Set(roles).size === roles.length, "each duty at most once");

export const UserIdParam = z.object({ userId: z.string().min(1).max(64) });

export const MemberListQuery = ListQuery.extend({
  /** A duty, or `warga` for the residents (whatever duties they also hold). */
  role: z.enum(["warga", ...DUTIES]).optional(),
  /** Text in the name, or for the admin also in the email or WhatsApp number (other staff see those masked). */
  q: Line(100).optional(),
});
export type MemberListQuery = z.infer<typeof MemberListQuery>;

export const RolesInput = z.object({ roles: Duties });
export type RolesInput = z.infer<typeof RolesInput>;

export const InvitationInput = z
  .object({
    name: Line(120, 2),
    email: Email.optional(),
    whatsapp: IndonesianMobile.optional(),
    roles: Duties,
    /** Their house in the community's registry; none for an officer or guard who does not live there. */
    unitId: z.string().min(1).max(64).optional(),
  })
  .refine((v) => v.email !== undefined || v.whatsapp !== undefined, {
    message: "an email or a WhatsApp number, to send the invitation to",
    path: ["email"],
  })
  .refine((v) => v.roles.length > 0 || v.unitId !== undefined, {
    message: "a member with no duty lives here: give their house",
    path: ["unitId"],
  });
export type InvitationInput = z.infer<typeof InvitationInput>;

/** A contact for an invited member (issue 45): exactly one, the one to re-send the invitation through. */
export const InvitationContactInput = z
  .object({
    email: Email.optional(),
    whatsapp: IndonesianMobile.optional(),
  })
  .refine((v) => (v.email === undefined) !== (v.whatsapp === undefined), {
    message: "exactly one of an email or a WhatsApp number",
    path: ["email"],
  });
export type InvitationContactInput = z.infer<typeof InvitationContactInput>;

export const PersonInput = z.object({
  /** Their own person on a family card (`family_members.id`); null unlinks. */
  personId: z.string().min(1).max(64).nullable(),
  /**
   * Admins only: link a person who is not on a card of the member's house (a registry not yet up to
   * date). Recorded in the audit log; without it such a link is 409 `person_not_in_household`.
   */
  override: z.boolean().optional(),
});
export type PersonInput = z.infer<typeof PersonInput>;

export const UnitInput = z.object({
  /** A house of the registry (`GET /api/kependudukan/units`); null: the member lives elsewhere. */
  unitId: z.string().min(1).max(64).nullable(),
});
export type UnitInput = z.infer<typeof UnitInput>;

export const Member = z
  .object({
    userId: z.string(),
    name: z.string(),
    /** Whole for admins; masked (`d***@warga.test`) for other staff. */
    email: z.string().nullable(),
    /** Whole for admins; masked (`6281*******90`) for other staff. */
    whatsapp: z.string().nullable(),
    unitId: z.string().nullable(),
    unit: z.object({ id: z.string(), block: z.string(), number: z.string() }).nullable(),
    personId: z.string().nullable(),
    roles: z.array(Duty),
    resident: z.boolean(),
    /** `diundang` until the member has signed in (a password set, or a session opened here); `nonaktif` for a disabled account. */
    status: z.enum(["aktif", "diundang", "nonaktif"]),
    joinedAt: z.string(),
  })
  .openapi("Member");

export const InvitationSent = z
  .object({
    invitation: InvitationOutcome,
  })
  .openapi("MemberInvitation");

export const InvitationIdParam = z.object({ id: z.string().min(1).max(64) });

export const PendingInvitation = z
  .object({
    /** The invitation's id (not its link): what `DELETE /api/members/invitations/{id}` takes. */
    id: z.string(),
    /** `account`: a new account's set-password link (the member shows as `diundang`); `join`: an existing account's join link. */
    kind: z.enum(["account", "join"]),
    /** The person as the inviter named them. */
    name: z.string(),
    /** Masked (`d***@warga.test`), as the inviter typed it. */
    email: z.string().nullable(),
    /** Masked (`6281*******90`), as the inviter typed it. */
    whatsapp: z.string().nullable(),
    /** The duties the link offers (a set-password link: its membership's, as they stand). */
    roles: z.array(Duty),
    unitId: z.string().nullable(),
    /** How the inviter was told it went out. */
    channel: z.enum(["email", "whatsapp"]).nullable(),
    /** Who sent it: a member of staff or an operator; null for the system or an account since gone. */
    sentBy: z.object({ userId: z.string(), name: z.string() }).nullable(),
    expiresAt: z.string(),
    createdAt: z.string(),
  })
  .openapi("PendingInvitation");

export const IssuedSignInCode = z
  .object({
    userId: z.string(),
    code: z.string().describe("Shown once: only its hash is kept. Single use."),
    link: z.string().describe("The web app's sign-in page carrying the code: what the QR holds"),
    qrSvg: z.string().describe("The link as a QR code, an SVG document"),
    expiresAt: z.string().describe("24 hours after issue"),
  })
  .openapi("IssuedSignInCode");
