import type { TenantRole } from "../../src/core/context";
import type { FeatureFlag } from "../../src/core/flags";

/**
 * Who may call every route, written by hand from the spec (its "Who" column and its Authentication
 * section), ARCHITECTURE.md's role table and the module issues (2–8), never read from the route table:
 * that is what lets the role walk catch a wrong `access:` line in a module's index.ts. Nothing here is
 * imported from src/ but the two type names.
 *
 * Reading rules, so that each line below can be checked against its source:
 * - Issue 27: roles are duties held on top of residency. `warga` in a line below means "lives in the
 *   community" (has a house there, or holds no duty at all): a ketua, sekretaris or bendahara with a
 *   house passes every R line; one without a house does not. The walk checks each duty alone, each duty
 *   plus residency, and the resident with no duty.
 * - The spec's R is the resident (`warga`); its S, "community staff (pengurus)", is every staff role
 *   (bendahara, sekretaris, admin); an issue's "(staff)" means the same S.
 * - `satpam` (issue 27: "gate guard: today's guest list, pass check-in and check-out, nothing else")
 *   is in GATE and in no other line; a guard who also lives there reaches the R lines as a resident.
 * - Where the spec or an issue names narrower roles, those win: the registry is "opened by secretary and
 *   admin roles"; issue 5 gives poll management to sekretaris and admin; issue 8 gives the letter
 *   console to sekretaris and admin (and "staff" elsewhere in the letter section means those two);
 *   issue 7 gives support tickets to "the admin of a tenant"; issue 6 gives gate devices to admin.
 * - `/api/platform/*` is super_admin only (issue 3); P (public) routes need no login.
 * - Flags as the spec names them: pasar, tamu (guest book and its gate), musyawarah, surat (letters),
 *   warga (population registry plus resident accounts). Complaints, suggestions and proposals, the
 *   dashboard and support tickets have none (issue 8 puts only letters under `surat`).
 *
 * Where this table and the code disagree, this table keeps the spec's answer and the disagreement is
 * listed in KNOWN_DISAGREEMENTS below, until the lead settles it in the code or here.
 */

/** `user`: any signed-in user, operators included; `device`: a gate device's API key. */
export type Who = "public" | "service" | "user" | "platform" | "device" | readonly TenantRole[];

export interface Expectation {
  who: Who;
  flag?: FeatureFlag;
}

const R = ["warga"] as const;
const S = ["bendahara", "sekretaris", "admin"] as const;
const R_S = ["warga", "bendahara", "sekretaris", "admin"] as const;
const SEK_ADMIN = ["sekretaris", "admin"] as const;
const R_SEK_ADMIN = ["warga", "sekretaris", "admin"] as const;
const ADMIN = ["admin"] as const;
const FINANCE = ["bendahara", "admin"] as const;
const R_FINANCE = ["warga", "bendahara", "admin"] as const;
const GATE = ["bendahara", "sekretaris", "admin", "satpam"] as const;

const pub: Expectation = { who: "public" };
const user: Expectation = { who: "user" };
const platform: Expectation = { who: "platform" };

export const EXPECTED_ACCESS: Readonly<Record<string, Expectation>> = {
  // Spec: GET /api/health, any.
  "GET /api/health": pub,

  // Identity (spec Authentication; issue 3). Sign-in, refresh, logout and resets are for callers
  // without a valid access token by nature.
  "POST /api/auth/login": pub,
  "POST /api/auth/refresh": pub,
  "POST /api/auth/logout": pub,
  "POST /api/auth/switch-tenant": user,
  "POST /api/auth/magic-link": pub,
  "POST /api/auth/magic-link/verify": pub,
  "POST /api/auth/forgot-password": pub,
  "POST /api/auth/reset-password": pub,
  "POST /api/auth/join/accept": pub,
  "GET /api/auth/oauth/:provider": pub,
  "GET /api/auth/oauth/:provider/callback": pub,
  "POST /api/auth/oauth/exchange": pub,
  "GET /api/user/me": user,
  // Spec: PUT /api/user/profile, R ("Resident profile"). Staff are residents of their RT too: they
  // complete the same profile (name, WhatsApp, house), so every member may (settled in issue 11).
  "PUT /api/user/profile": { who: R_S },
  "GET /reset-password": pub,
  "POST /reset-password": pub,

  // Operator tenant management (issue 2; /api/platform/* is super_admin only).
  "POST /api/platform/tenants": platform,
  "GET /api/platform/tenants": platform,
  "PATCH /api/platform/tenants/:id": platform,
  // Issue 27: the operator closes a community and invites its admins.
  "DELETE /api/platform/tenants/:id": platform,
  "POST /api/platform/tenants/:id/admin-invitations": platform,

  // Registry: spec "GET /api/kependudukan/* | S", narrowed by "opened by secretary and admin roles";
  // the writes are the registry's too. The household view is issue 8's (a resident requests a letter
  // for a household member), a resident's own masked view rather than a registry read.
  "GET /api/kependudukan/units": { who: SEK_ADMIN, flag: "warga" },
  "GET /api/kependudukan/units/:id": { who: SEK_ADMIN, flag: "warga" },
  "POST /api/kependudukan/units": { who: SEK_ADMIN, flag: "warga" },
  "GET /api/kependudukan/household": { who: R, flag: "warga" },
  "GET /api/kependudukan/kk": { who: SEK_ADMIN, flag: "warga" },
  "POST /api/kependudukan/kk": { who: SEK_ADMIN, flag: "warga" },
  "GET /api/kependudukan/kk/:id": { who: SEK_ADMIN, flag: "warga" },
  "POST /api/kependudukan/kk/:id/members": { who: SEK_ADMIN, flag: "warga" },
  // Issue 13: the rest of the registry is the secretary's and the admin's; the resident proposes
  // corrections to their own household and sees their own proposals.
  "PUT /api/kependudukan/units/:id": { who: SEK_ADMIN, flag: "warga" },
  "DELETE /api/kependudukan/units/:id": { who: SEK_ADMIN, flag: "warga" },
  "PUT /api/kependudukan/kk/:id": { who: SEK_ADMIN, flag: "warga" },
  "DELETE /api/kependudukan/kk/:id": { who: SEK_ADMIN, flag: "warga" },
  "PUT /api/kependudukan/kk/:id/members/:memberId": { who: SEK_ADMIN, flag: "warga" },
  "DELETE /api/kependudukan/kk/:id/members/:memberId": { who: SEK_ADMIN, flag: "warga" },
  "POST /api/kependudukan/kk/:id/vehicles": { who: SEK_ADMIN, flag: "warga" },
  "PUT /api/kependudukan/kk/:id/vehicles/:vehicleId": { who: SEK_ADMIN, flag: "warga" },
  "DELETE /api/kependudukan/kk/:id/vehicles/:vehicleId": { who: SEK_ADMIN, flag: "warga" },
  "GET /api/kependudukan/statistik": { who: SEK_ADMIN, flag: "warga" },
  "GET /api/kependudukan/export": { who: SEK_ADMIN, flag: "warga" },
  "POST /api/kependudukan/import": { who: SEK_ADMIN, flag: "warga" },
  "GET /api/kependudukan/mutasi": { who: SEK_ADMIN, flag: "warga" },
  "POST /api/kependudukan/mutasi": { who: SEK_ADMIN, flag: "warga" },
  "GET /api/kependudukan/household/corrections": { who: R, flag: "warga" },
  "POST /api/kependudukan/household/corrections": { who: R, flag: "warga" },
  "GET /api/kependudukan/corrections": { who: SEK_ADMIN, flag: "warga" },
  "PUT /api/kependudukan/corrections/:id": { who: SEK_ADMIN, flag: "warga" },

  // Polls: spec R,S list and R vote; issue 5 names sekretaris and admin as the organisers, and its
  // "(staff)" vote list is theirs.
  "GET /api/musyawarah": { who: R_S, flag: "musyawarah" },
  "POST /api/musyawarah": { who: SEK_ADMIN, flag: "musyawarah" },
  "GET /api/musyawarah/:id": { who: R_S, flag: "musyawarah" },
  "PUT /api/musyawarah/:id": { who: SEK_ADMIN, flag: "musyawarah" },
  "DELETE /api/musyawarah/:id": { who: SEK_ADMIN, flag: "musyawarah" },
  "POST /api/musyawarah/:id/vote": { who: R, flag: "musyawarah" },
  "GET /api/musyawarah/:id/votes": { who: SEK_ADMIN, flag: "musyawarah" },

  // Applications and credentials (issue 3, "Staff (sekretaris, admin)", flag warga).
  "POST /api/public/tenants/:slug/applications": pub,
  "GET /api/applications": { who: SEK_ADMIN, flag: "warga" },
  "PUT /api/applications/:id": { who: SEK_ADMIN, flag: "warga" },
  // Reading the residents list is a staff read (the architecture's "bendahara: staff reads"): the
  // treasurer bills every household, so the list is S (settled in issue 11).
  "GET /api/residents": { who: S, flag: "warga" },
  "POST /api/residents/:id/credentials/reset": { who: SEK_ADMIN, flag: "warga" },

  // Audit reads (issue 3): the tenant's admin, and operators.
  "GET /api/audit": { who: ADMIN },
  "GET /api/platform/audit": platform,

  // Guest book (spec: R registers and lists their own, S reviews and works the gate; issue 6: the
  // single request and its QR for the owning resident and staff).
  "POST /api/visitor": { who: R, flag: "tamu" },
  "GET /api/visitor/mine": { who: R, flag: "tamu" },
  // Issue 27: the guard works the gate and sees today's guests (the verb narrows the list for them).
  "GET /api/visitor": { who: GATE, flag: "tamu" },
  "POST /api/visitor/gate/check-in": { who: GATE, flag: "tamu" },
  "POST /api/visitor/gate/check-out": { who: GATE, flag: "tamu" },
  "GET /api/visitor/:id": { who: R_S, flag: "tamu" },
  "GET /api/visitor/:id/qr": { who: R_S, flag: "tamu" },
  "PUT /api/visitor/:id": { who: S, flag: "tamu" },

  // Gate devices (issue 6: admin) and the webhook, authorised by the device's own key (spec; the
  // platform-kit design moves it into the guard as `{ scope: "device", flag: "tamu" }`).
  "GET /api/gate-devices": { who: ADMIN, flag: "tamu" },
  "POST /api/gate-devices": { who: ADMIN, flag: "tamu" },
  "POST /api/gate-devices/:id/deactivate": { who: ADMIN, flag: "tamu" },
  "POST /api/gate-devices/:id/activate": { who: ADMIN, flag: "tamu" },
  "DELETE /api/gate-devices/:id": { who: ADMIN, flag: "tamu" },
  "GET /api/gate-devices/:id/events": { who: ADMIN, flag: "tamu" },
  "POST /api/gate-hardware/webhook": { who: "device", flag: "tamu" },

  // Letters (spec R,S types and PDF, R requests, S console; issue 8 narrows staff to sekretaris and
  // admin). Numbering settings are not in the spec nor the issue: read by the letter staff, changed by
  // the admin (the head signs the letters).
  "GET /api/surat/jenis": { who: R_S, flag: "surat" },
  "POST /api/surat": { who: R, flag: "surat" },
  "GET /api/surat/mine": { who: R, flag: "surat" },
  "GET /api/surat": { who: SEK_ADMIN, flag: "surat" },
  "GET /api/surat/next-number": { who: SEK_ADMIN, flag: "surat" },
  "GET /api/surat/settings": { who: SEK_ADMIN, flag: "surat" },
  "PUT /api/surat/settings": { who: ADMIN, flag: "surat" },
  "GET /api/surat/:id": { who: R_SEK_ADMIN, flag: "surat" },
  "PUT /api/surat/:id": { who: SEK_ADMIN, flag: "surat" },
  "POST /api/surat/:id/resubmit": { who: R, flag: "surat" },
  "POST /api/surat/:id/cancel": { who: R, flag: "surat" },
  "GET /api/surat/:id/pdf": { who: R_SEK_ADMIN, flag: "surat" },
  "GET /verify/surat/:code": pub,

  // Complaints, suggestions, proposals (issue 8: residents send, "(staff)" review; the spec sends
  // complaints "from residents to RT/RW staff").
  "POST /api/pengaduan": { who: R },
  "GET /api/pengaduan/mine": { who: R },
  "GET /api/pengaduan": { who: S },
  "GET /api/pengaduan/:id": { who: R_S },
  "PUT /api/pengaduan/:id": { who: S },
  "POST /api/saran": { who: R },
  "GET /api/saran": { who: S },
  "PUT /api/saran/:id/read": { who: S },
  "POST /api/usulan": { who: R },
  "GET /api/usulan": { who: R_S },
  "GET /api/usulan/:id": { who: R_S },
  "POST /api/usulan/:id/dukung": { who: R },
  "PUT /api/usulan/:id": { who: S },

  // Dashboard (spec: S).
  "GET /api/statistik/operasional": { who: S },

  // Support tickets (spec: between "community staff (tenant admins)" and operators; issue 7: the tenant
  // side is the admin of a tenant). Files are served to whoever may see their ticket, decided per file.
  "POST /api/uploads/resident-image": { who: ADMIN },
  "POST /api/support-tickets": { who: ADMIN },
  "GET /api/support-tickets": { who: ADMIN },
  "GET /api/support-tickets/:id": { who: ADMIN },
  "POST /api/support-tickets/:id/messages": { who: ADMIN },
  "GET /api/support-files/:id": user,
  "POST /api/platform/uploads/support-image": platform,
  "GET /api/platform/support-tickets": platform,
  "GET /api/platform/support-tickets/:id": platform,
  "PATCH /api/platform/support-tickets/:id": platform,
  "GET /api/public/support-tickets/:reply_token": pub,
  "POST /api/public/support-tickets/:reply_token/messages": pub,
  "POST /api/public/support-tickets/:reply_token/uploads": pub,
  "GET /api/public/support-tickets/:reply_token/files/:id": pub,
  "POST /api/public/contact": pub,
  "GET /support/reply/:reply_token": pub,
  "POST /support/reply/:reply_token": pub,
  // Content and notifications (issue 16): everyone in the tenant reads, the secretariat writes; each
  // user manages their own devices and preferences.
  "POST /api/user/push-tokens": { who: R_S },
  "DELETE /api/user/push-tokens/:token": { who: R_S },
  "GET /api/user/notification-preferences": user,
  "PUT /api/user/notification-preferences": user,
  "GET /api/berita": { who: R_S },
  "POST /api/berita": { who: SEK_ADMIN },
  "GET /api/berita/:id": { who: R_S },
  "PUT /api/berita/:id": { who: SEK_ADMIN },
  "DELETE /api/berita/:id": { who: SEK_ADMIN },
  "GET /api/pengumuman": { who: R_S },
  "POST /api/pengumuman": { who: SEK_ADMIN },
  "GET /api/pengumuman/:id": { who: R_S },
  "PUT /api/pengumuman/:id": { who: SEK_ADMIN },
  "DELETE /api/pengumuman/:id": { who: SEK_ADMIN },
  "GET /api/pengumuman/:id/pengiriman": { who: SEK_ADMIN },
  "GET /api/agenda": { who: R_S },
  "POST /api/agenda": { who: SEK_ADMIN },
  "GET /api/agenda/:id": { who: R_S },
  "PUT /api/agenda/:id": { who: SEK_ADMIN },
  "DELETE /api/agenda/:id": { who: SEK_ADMIN },
  "GET /api/watch/summary": { who: R_S },
  // The ticket-mail Worker's inbound replies (spec: "passes the reply to the platform's internal API").
  "POST /internal/support-tickets/replies": { who: "service" },

  // RW hierarchy (spec: RW = the RW head, the admin of an RW tenant; issue 13). No flag.
  "GET /api/tenant-hierarchy/children": { who: ADMIN },
  "GET /api/tenant-hierarchy/summary": { who: ADMIN },
  "POST /api/tenant-hierarchy/link-child": { who: ADMIN },
  "DELETE /api/tenant-hierarchy/link-child/:slug": { who: ADMIN },
  // Issue 27: "the RT's admin sees it at GET /api/tenant-hierarchy/parent-request and answers".
  "GET /api/tenant-hierarchy/parent-request": { who: ADMIN },
  "POST /api/tenant-hierarchy/parent-request/accept": { who: ADMIN },
  "POST /api/tenant-hierarchy/parent-request/decline": { who: ADMIN },
  // The assistant (spec: R; issue 17). No flag: the spec names none for it. The rules and agenda text
  // its info_rt tool reads is written by the secretariat and readable by every member.
  "GET /api/ai/status": { who: R },
  "POST /api/ai/chat": { who: R },
  "GET /api/ai/info-rt": { who: R_S },
  "PUT /api/ai/info-rt": { who: SEK_ADMIN },

  // Payments and subscription billing (spec: S for the tenant's invoices; issue 15 and the roles table of
  // docs/architecture.md narrow it to the tenant admin, as for support tickets). The gateway calls the
  // callback without a login: its signature or token is the credential.
  "POST /api/payments/gateway/callback": pub,
  "POST /api/billing/invoices": { who: ADMIN },
  "GET /api/billing/invoices": { who: ADMIN },
  "GET /api/billing/plans": { who: ADMIN },
  "POST /api/platform/tenants/:id/invoices": platform,
  "GET /api/platform/tenants/:id/invoices": platform,
  "POST /api/platform/tenants/:id/invoices/:invoiceId/void": platform,
  "GET /api/platform/billing/plans": platform,
  "POST /api/platform/billing/plans": platform,
  "GET /api/platform/payments/callbacks": platform,

  // Finance (issue 14): "bendahara writes, admin approves where noted and reads everything, sekretaris
  // reads, warga sees their own bills, campaigns and the published report". Writes are the finance
  // group (bendahara, and admin who reads and approves everything); reads are S; the budget and the
  // expense decision are the admin's ("(admin)"), a bendahara cannot approve. Campaigns: staff create
  // and edit, visible to residents; donations by a resident (pledge) or the bendahara (cash). No flag.
  "GET /api/iuran/jenis": { who: S },
  "POST /api/iuran/jenis": { who: FINANCE },
  "PUT /api/iuran/jenis/:id": { who: FINANCE },
  "POST /api/iuran/tagihan/generate": { who: FINANCE },
  "GET /api/iuran/tagihan": { who: S },
  "POST /api/iuran/tagihan/:id/pembayaran": { who: FINANCE },
  // Reversing a payment is the same write as recording one, undone: the finance group.
  "POST /api/iuran/pembayaran/:id/pembatalan": { who: FINANCE },
  "POST /api/iuran/tagihan/:id/bayar-online": { who: R },
  "GET /api/iuran/mine": { who: R },
  "GET /api/iuran/tunggakan": { who: S },
  "POST /api/iuran/pengingat": { who: FINANCE },
  "GET /api/kas": { who: S },
  "POST /api/kas": { who: FINANCE },
  "POST /api/kas/:id/koreksi": { who: FINANCE },
  "GET /api/anggaran": { who: S },
  "PUT /api/anggaran/:tahun": { who: ADMIN },
  "GET /api/pengeluaran": { who: S },
  "POST /api/pengeluaran": { who: FINANCE },
  "PUT /api/pengeluaran/:id": { who: ADMIN },
  "GET /api/kampanye": { who: R_S },
  "POST /api/kampanye": { who: S },
  "GET /api/kampanye/:id": { who: R_S },
  "PUT /api/kampanye/:id": { who: S },
  "POST /api/kampanye/:id/donasi": { who: R_FINANCE },
  "PUT /api/kampanye/:id/donasi/:donationId": { who: FINANCE },
  "GET /api/laporan/keuangan": { who: S },
  "GET /api/keuangan/pengaturan": { who: S },
  "PUT /api/keuangan/pengaturan": { who: ADMIN },
  "GET /api/public/tenants/:slug/laporan": pub,
  // Tenant file store (issue 16): every member reaches both routes; what each may upload or read is
  // decided per purpose in the verbs (proof of payment: its uploader and finance; covers: everyone).
  "POST /api/files": { who: R_S },
  "GET /api/files/:id": { who: R_S },

  // Operability (issue 19): the operator's deep health view.
  "GET /api/platform/health": platform,
  "POST /api/platform/tenants/:id/erasures": platform,

  // Gallery (issue 16: institutional content, written by sekretaris and admin, read by everyone).
  "GET /api/galeri": { who: R_S },
  "POST /api/galeri": { who: SEK_ADMIN },
  "GET /api/galeri/:id": { who: R_S },
  "DELETE /api/galeri/:id": { who: SEK_ADMIN },
  "POST /api/galeri/:id/foto": { who: SEK_ADMIN },
  "DELETE /api/galeri/:id/foto/:photoId": { who: SEK_ADMIN },
  // Marketplace (issue 16, flag pasar): residents trade (staff are residents too; the seller-only rule is
  // the verb's); sekretaris and admin moderate.
  "GET /api/pasar/mine": { who: R_S, flag: "pasar" },
  "GET /api/pasar/listings": { who: R_S, flag: "pasar" },
  "POST /api/pasar/listings": { who: R_S, flag: "pasar" },
  "GET /api/pasar/listings/:id": { who: R_S, flag: "pasar" },
  "PUT /api/pasar/listings/:id": { who: R_S, flag: "pasar" },
  "DELETE /api/pasar/listings/:id": { who: R_S, flag: "pasar" },
  "PUT /api/pasar/listings/:id/moderasi": { who: SEK_ADMIN, flag: "pasar" },
  // Issue 19: a person's own data, across all their memberships (any signed-in account).
  "GET /api/user/data-export": user,

  // Tenant archives (issue 19: "tenant admin, and operator"): the community's head exports its data,
  // with no feature flag (like the other admin routes of non-feature modules); operators export any
  // tenant and alone import.
  "POST /api/archives": { who: ADMIN },
  "GET /api/archives": { who: ADMIN },
  "GET /api/archives/:id": { who: ADMIN },
  "GET /api/archives/:id/download": { who: ADMIN },
  "POST /api/platform/tenants/:id/archives": platform,
  "GET /api/platform/tenants/:id/archives": platform,
  "POST /api/platform/tenants/:id/imports": platform,
  "GET /api/platform/archives/:id": platform,
  "GET /api/platform/archives/:id/download": platform,

  // Members and duties (issue 27): "Committee routes (admin)": appointing, inviting and removing are the
  // admin's; the list is for staff ("contact masked for non-admins if staff may read it"); linking an
  // account to its registry person is "by sekretaris/admin" (item 4). No feature flag.
  "GET /api/members": { who: S },
  "POST /api/members/invitations": { who: ADMIN },
  "PUT /api/members/:userId/roles": { who: ADMIN },
  "DELETE /api/members/:userId": { who: ADMIN },
  "PUT /api/members/:userId/person": { who: SEK_ADMIN },
};

export interface Disagreement {
  /** The tenant roles whose answer differs between the spec (above) and the code today. */
  roles: readonly TenantRole[];
  why: string;
}

/**
 * Routes where the code does not do what the spec says, for the lead to decide. The walk checks
 * every other cell; each entry here runs as an expected failure (`it.fails`), so the day the code
 * follows the spec the walk says so and the entry is removed (or the line above changes, if the code
 * was right).
 */
export const KNOWN_DISAGREEMENTS: Readonly<Record<string, Disagreement>> = {};
