import { defineIndonesianTitles } from "../../core/i18n";

/** This module's own problem codes: joined into ErrorCode (core/errors.ts) and the list src/app.ts builds. */
export const IDENTITY_ERROR_CODES = [
  // Credentials, sessions and one-time tokens.
  "token_invalid",
  "token_used",
  "invalid_credentials",
  "invalid_refresh_token",
  "refresh_token_reused",
  // A cookie sign-in request from another origin (ADR 0041).
  "origin_refused",
  "session_ended",
  "account_disabled",
  "no_membership",
  "password_too_short",
  // Changing one's own password (issue 45): the current one, when the account has one, was wrong.
  "current_password_invalid",
  "provider_not_found",
  "provider_unconfigured",
  // Memberships and duties (issue 27; members' routes and residents' applications throw them too).
  "last_admin",
  "not_resident",
  "person_taken",
  // Invitations with a lifecycle (issue 44): a withdrawn or replaced link.
  "invitation_retired",
  // Adding a contact to an invitation (issue 45): one no longer pending, or an existing account's join link.
  "invitation_not_pending",
  "invitation_is_join",
  // Accounts and profiles (residents, members, musyawarah, keuangan and pasar throw some of them too).
  "profile_incomplete",
  "whatsapp_taken",
  "account_conflict",
  "already_member",
  "no_contact",
  // Proving a contact with a one-time code (issue 44).
  "contact_already_verified",
  "contact_code_invalid",
  // Signing in without email (issue 45): a WhatsApp code, an officer's sign-in code.
  "code_invalid",
  "sign_in_code_refused",
  // Device push tokens.
  "push_token_not_found",
] as const;

declare module "../../core/errors" {
  interface ModuleErrorCodes {
    identity: (typeof IDENTITY_ERROR_CODES)[number];
  }
}

/** The codes above in Indonesian (the catalogue of core/i18n; issue 30 item 3). */
defineIndonesianTitles<(typeof IDENTITY_ERROR_CODES)[number]>({
  token_invalid: "Tautan atau token tidak valid",
  token_used: "Tautan atau token sudah dipakai",
  invalid_credentials: "Email atau kata sandi salah",
  invalid_refresh_token: "Token penyegaran tidak valid",
  refresh_token_reused: "Token penyegaran sudah pernah dipakai; silakan masuk lagi",
  origin_refused: "Permintaan dari situs lain ditolak",
  session_ended: "Sesi sudah berakhir; silakan masuk lagi",
  account_disabled: "Akun dinonaktifkan",
  no_membership: "Anda bukan anggota komunitas ini",
  password_too_short: "Kata sandi terlalu pendek",
  current_password_invalid: "Kata sandi saat ini salah",
  provider_not_found: "Penyedia masuk tidak dikenal",
  provider_unconfigured: "Penyedia masuk belum diatur",
  last_admin: "Admin terakhir tidak dapat dihapus",
  not_resident: "Hanya warga yang dapat melakukan ini",
  person_taken: "Data warga ini sudah terhubung ke akun lain",
  invitation_retired: "Undangan ini sudah ditarik atau diganti undangan yang lebih baru",
  invitation_not_pending:
    "Undangan ini sudah diterima, ditarik atau diganti; kirim ulang undangan terbaru atau undang lagi",
  invitation_is_join: "Undangan ini untuk akun yang sudah ada; kontaknya milik pemegang akun",
  profile_incomplete: "Lengkapi profil Anda terlebih dahulu",
  whatsapp_taken: "Nomor WhatsApp sudah terverifikasi di akun lain",
  account_conflict: "Akun bentrok dengan akun yang sudah ada",
  already_member: "Sudah menjadi anggota komunitas ini",
  no_contact: "Tidak ada kontak untuk mengirim pesan",
  contact_already_verified: "Kontak ini sudah terverifikasi",
  contact_code_invalid: "Kode salah, kedaluwarsa, atau sudah dipakai; minta kode baru",
  code_invalid: "Kode salah, kedaluwarsa, atau sudah dipakai; minta kode baru",
  sign_in_code_refused: "Akun ini masuk dengan kredensialnya sendiri; kode masuk tidak dapat dibuat",
  push_token_not_found: "Token notifikasi tidak ditemukan",
});
