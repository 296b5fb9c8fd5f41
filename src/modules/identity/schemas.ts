import { z } from "zod";
import { DUTIES } from "../../core/context";
import { Block, Email, HouseNumber, IndonesianMobile, Line, Slug } from "../../core/schemas";

export const LoginInput = z
  .object({
    email: Email.optional(),
    /** Residents invited over WhatsApp have no email: their number is their sign-in name. */
    whatsapp: IndonesianMobile.optional(),
    password: z.string().min(1).max(200),
    tenant: Slug.optional(),
  })
  .refine((v) => (v.email === undefined) !== (v.whatsapp === undefined), {
    message: "Give exactly one of email or whatsapp",
    path: ["email"],
  });
export type LoginInput = z.infer<typeof LoginInput>;

export const TenantRef = z.object({ slug: z.string(), name: z.string(), type: z.enum(["RT", "RW"]) });
/**
 * Duties held in the current community (none for a plain resident), or `super_admin` for an operator's
 * platform session. Residency is the separate `resident` flag: a ketua who lives in the RT has
 * `roles: ["admin"], resident: true`.
 */
export const Roles = z.array(z.enum([...DUTIES, "super_admin"])).openapi("Roles");
const Standing = { roles: Roles, resident: z.boolean() };

export const LoginResult = z
  .object({
    accessToken: z.string(),
    refreshToken: z
      .string()
      .optional()
      .describe(
        "Always present for API clients; absent for the web app (`X-Warga-Client: web`), which gets it as an HttpOnly cookie",
      ),
    expiresIn: z.number().int(),
    user: z.object({
      id: z.string(),
      name: z.string(),
      email: z.string().nullable(),
      ...Standing,
      tenant: TenantRef.nullable(),
    }),
  })
  .openapi("LoginResult");

export const Me = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    whatsapp: z.string().nullable(),
    emailVerified: z
      .boolean()
      .describe("Whether the holder proved the email; an unproven one still receives messages"),
    hasPassword: z
      .boolean()
      .describe(
        "Whether the account has a password; one that only signs in by a code may set one (`POST /api/user/password`)",
      ),
    whatsappVerified: z
      .boolean()
      .describe(
        "Whether the holder proved the number with a one-time code (`POST /api/user/contacts/verify`). " +
          "Until then invitations, approved applications and sign-in do not match it; messages still go to it",
      ),
    ...Standing,
    tenant: TenantRef.nullable(),
    unitId: z.string().nullable(),
    /** The caller's own person on a family card of the current community's registry, when linked. */
    personId: z.string().nullable(),
    unit: z.object({ id: z.string(), block: z.string(), number: z.string() }).nullable().optional(),
    /**
     * The caller's newest request for a house in the current community (issue 44: a house is granted
     * by the secretariat, never claimed): `diajukan` while it waits, then `diterima` or `ditolak` with
     * the reason. Null when they never asked.
     */
    unitRequest: z
      .object({
        id: z.string(),
        block: z.string(),
        number: z.string(),
        status: z.enum(["diajukan", "diterima", "ditolak"]),
        reason: z.string().nullable(),
        createdAt: z.string(),
        decidedAt: z.string().nullable(),
      })
      .nullable()
      .optional(),
    profileComplete: z.boolean(),
    memberships: z.array(z.object({ tenant: TenantRef, ...Standing })),
  })
  .openapi("Me");

/** Opaque one-time secrets: 32 random bytes in base64url are 43 characters. */
const Secret = z.string().min(20).max(200);

/** `refreshToken` is required of every client but the web app, whose token is its cookie (ADR 0041). */
export const RefreshInput = z.object({ refreshToken: Secret.optional() });
/** What signing out everywhere else ended. */
export const LoggedOutOthers = z
  .object({ ended: z.number().int().describe("How many other sessions of the account were ended") })
  .openapi("LoggedOutOthers");

export const LogoutInput = z.object({
  refreshToken: Secret.optional(),
  /** The device's FCM token, unregistered from push so a signed-out phone stops getting notifications. */
  pushToken: z.string().min(1).max(4096).optional(),
});
export const SwitchTenantInput = z.object({ tenant: Slug });

export const MagicLinkInput = z.object({ email: Email, tenant: Slug.optional() });
export type MagicLinkInput = z.infer<typeof MagicLinkInput>;
export const TokenInput = z.object({ token: Secret });
export const ExchangeInput = z.object({ code: Secret });

export const ForgotPasswordInput = z.object({ email: Email });
/** Length is checked by the service, which answers the spec's `password_too_short`. */
export const ResetPasswordInput = z.object({
  token: Secret,
  password: z
    .string()
    .max(200)
    .describe("The new password: at least 8 characters (400 `password_too_short` otherwise), at most 200"),
});

/** Length is checked by the service, which answers `password_too_short`. */
export const SetPasswordInput = z.object({
  newPassword: z
    .string()
    .max(200)
    .describe("The new password: at least 8 characters (400 `password_too_short` otherwise), at most 200"),
  currentPassword: z
    .string()
    .max(200)
    .optional()
    .describe("Required when the account has a password already; ignored when it has none"),
});

export const Accepted = z.object({ status: z.literal("accepted") }).openapi("Accepted");

export const ProfileInput = z
  .object({
    fullName: Line(120, 2),
    whatsapp: IndonesianMobile,
    /** With `houseNumber`: the house the caller asks to be registered at (staff grant it). */
    block: Block.optional(),
    houseNumber: HouseNumber.optional(),
  })
  .refine((v) => (v.block === undefined) === (v.houseNumber === undefined), {
    message: "block and house number go together",
    path: ["houseNumber"],
  });
export type ProfileInput = z.infer<typeof ProfileInput>;

export const ProviderParam = z.object({ provider: z.string().regex(/^[a-z0-9-]{1,32}$/) });
export const OAuthStartQuery = z.object({ tenant: Slug.optional() });
export const OAuthCallbackQuery = z.object({
  code: z.string().max(2048).optional(),
  state: z.string().max(200).optional(),
  error: z.string().max(200).optional(),
});

export const JoinAccepted = z.object({ tenant: TenantRef, ...Standing }).openapi("JoinAccepted");

export const InvitationPreview = z
  .object({
    kind: z
      .enum(["invitation", "join"])
      .describe(
        "`invitation`: a set-password link (`POST /api/auth/reset-password`); `join`: an existing account's join link (`POST /api/auth/join/accept`)",
      ),
    hasAccount: z
      .boolean()
      .describe("Whether the account already has a password: false for a new account, which sets one now"),
    name: z.string().describe("The account holder's name"),
    signInWith: z
      .object({ email: z.string().nullable(), whatsapp: z.string().nullable() })
      .nullable()
      .describe(
        "For an `invitation`: the account's sign-in name (email, or WhatsApp number without one), to sign in with the password just set; null for a `join` link",
      ),
    tenant: TenantRef,
    ...Standing,
  })
  .openapi("InvitationPreview");

export const AuthProviders = z
  .object({
    providers: z
      .array(
        z.object({ name: z.string().describe("The provider's name in `GET /api/auth/oauth/:provider`") }),
      )
      .describe("Configured providers only: named in OIDC_PROVIDERS and with their client secret set"),
  })
  .openapi("AuthProviders");

/** A browser's push subscription (PushSubscription.toJSON(): its endpoint and keys; RFC 8030, 8291). */
export const WebPushSubscription = z
  .object({
    endpoint: z
      .url({ protocol: /^https$/, error: "the push service's https URL" })
      .max(2048)
      .describe("The push service's URL for this browser (https)"),
    keys: z.object({
      p256dh: z
        .string()
        .regex(/^[A-Za-z0-9_-]{87}=?$/, "the browser's P-256 public key, base64url (65 bytes)"),
      auth: z.string().regex(/^[A-Za-z0-9_-]{22}(==)?$/, "the browser's auth secret, base64url (16 bytes)"),
    }),
  })
  .openapi("WebPushSubscription");
export type WebPushSubscription = z.infer<typeof WebPushSubscription>;

export const PushTokenInput = z
  .discriminatedUnion("platform", [
    z.object({
      /** The FCM registration token of this app install. */
      token: z
        .string()
        .min(1)
        .max(4096)
        .regex(/^[A-Za-z0-9_:.-]+$/, "an FCM or APNs token: letters, digits, _ : . -"),
      platform: z.enum(["android", "ios"]),
    }),
    z.object({
      platform: z.literal("web"),
      subscription: WebPushSubscription,
    }),
  ])
  .describe(
    "The Android and iOS apps send their FCM `token`; the web app sends its Web Push `subscription`, " +
      "whose device token (answered, and used to unregister) is base64url of `<endpoint> <p256dh> <auth>`.",
  );
export type PushTokenInput = z.infer<typeof PushTokenInput>;

export const PushTokenParam = z.object({ token: z.string().min(1).max(4096) });

export const PushDevice = z
  .object({ token: z.string(), platform: z.enum(["android", "ios", "web"]), registeredAt: z.string() })
  .openapi("PushDevice");

export const VapidKey = z
  .object({
    publicKey: z
      .string()
      .nullable()
      .describe("The VAPID public key to subscribe with (base64url); null: Web Push is not set up here"),
  })
  .openapi("VapidKey");

const ClockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "use HH:MM (24-hour, Asia/Jakarta)");

export const NotificationPreferences = z
  .object({
    push: z.boolean(),
    whatsapp: z.boolean(),
    email: z.boolean(),
    /** Asia/Jakarta; messages during these hours wait until they end (urgent announcements do not). */
    quietHours: z.object({ start: ClockTime, end: ClockTime }),
  })
  .openapi("NotificationPreferences");
export type NotificationPreferences = z.infer<typeof NotificationPreferences>;

export const ContactChannel = z
  .enum(["whatsapp", "email"])
  .describe("Which of the caller's own contacts: the profile's WhatsApp number or the account's email");
export const ContactCodeRequest = z.object({ channel: ContactChannel });
export const ContactCodeSent = z
  .object({
    channel: ContactChannel,
    expiresInSeconds: z.number().int().describe("How long the code works"),
  })
  .openapi("ContactCodeSent");
export const ContactCodeInput = z.object({
  channel: ContactChannel,
  code: z
    .string()
    .regex(/^\d{6}$/)
    .describe("The six digits sent to the contact"),
});
export const ContactVerified = z
  .object({ channel: ContactChannel, contact: z.string(), verifiedAt: z.string() })
  .openapi("ContactVerified");
export const ReleaseWhatsappInput = z.object({
  whatsapp: IndonesianMobile,
  reason: Line(500, 5).describe("Why the operator takes the proof away (kept in the platform audit log)"),
});
export const WhatsappReleased = z
  .object({ userId: z.string().describe("The account that lost the proof"), released: z.literal(true) })
  .openapi("WhatsappReleased");

/** Issue 45: a sign-in code sent to a proven WhatsApp number. */
export const WhatsappCodeRequestInput = z.object({ whatsapp: IndonesianMobile });
export const WhatsappCodeVerifyInput = z.object({
  whatsapp: IndonesianMobile,
  code: z.string().regex(/^\d{6}$/, "six digits"),
  tenant: Slug.optional(),
});

/** Issue 45: the code an officer handed over (`ABCD-EFGH-JKMN`, case, spaces and dashes as typed). */
export const SignInCodeInput = z.object({
  code: z
    .string()
    .min(12)
    .max(20)
    .describe("The 12 characters of the code, dashes and spaces optional, any case"),
});
