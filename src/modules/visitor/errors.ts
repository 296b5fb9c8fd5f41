import { defineIndonesianTitles } from "../../core/i18n";

/** This module's own problem codes: joined into ErrorCode (core/errors.ts) and the list src/app.ts builds. */
export const VISITOR_ERROR_CODES = [
  // Visitor passes.
  "visit_in_past",
  "visit_too_far",
  "not_approved",
  "invalid_pass",
  "foreign_pass",
  "pass_expired",
  "pass_not_yet_valid",
  "pass_used",
  "already_checked_in",
  "already_checked_out",
  "not_checked_in",
  // Walk-ins and stays (issue 45).
  "unknown_house",
  "no_host",
  "not_walk_in",
  "not_host",
  "stay_too_long",
  "outside_window",
  "pass_revoked",
] as const;

declare module "../../core/errors" {
  interface ModuleErrorCodes {
    visitor: (typeof VISITOR_ERROR_CODES)[number];
  }
}

/** The codes above in Indonesian (the catalogue of core/i18n; issue 30 item 3). */
defineIndonesianTitles<(typeof VISITOR_ERROR_CODES)[number]>({
  visit_in_past: "Waktu kunjungan sudah lewat",
  visit_too_far: "Waktu kunjungan terlalu jauh ke depan",
  not_approved: "Kunjungan belum disetujui",
  invalid_pass: "Kartu tamu tidak valid",
  foreign_pass: "Kartu tamu milik komunitas lain",
  pass_expired: "Kartu tamu sudah kedaluwarsa",
  pass_not_yet_valid: "Kartu tamu belum berlaku",
  pass_used: "Kartu tamu sudah dipakai",
  already_checked_in: "Tamu sudah masuk",
  already_checked_out: "Tamu sudah keluar",
  not_checked_in: "Tamu belum masuk",
  unknown_house: "Rumah tidak terdaftar",
  no_host: "Rumah ini belum punya akun warga",
  not_walk_in: "Bukan tamu yang datang langsung",
  not_host: "Bukan tamu untuk rumah Anda",
  stay_too_long: "Lama menginap terlalu panjang",
  outside_window: "Di luar jadwal kartu tamu tetap",
  pass_revoked: "Kartu tamu tetap sudah dicabut",
});
