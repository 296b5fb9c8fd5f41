import { defineIndonesianTitles } from "../../core/i18n";

/** This module's own problem codes: joined into ErrorCode (core/errors.ts) and the list src/app.ts builds. */
export const KEPENDUDUKAN_ERROR_CODES = [
  // The registry: units, family cards and their people (members, residents, keuangan and surat throw
  // some of them too).
  "unit_exists",
  "unit_not_found",
  "kk_number_taken",
  "nik_taken",
  "plate_taken",
  "invalid_nik",
  "invalid_kk_number",
  "unit_in_use",
  "kk_head_required",
  "household_member_not_found",
  "person_not_found",
  // A person link must be someone on a card of the member's own house (issue 44).
  "person_not_in_household",
] as const;

declare module "../../core/errors" {
  interface ModuleErrorCodes {
    kependudukan: (typeof KEPENDUDUKAN_ERROR_CODES)[number];
  }
}

/** The codes above in Indonesian (the catalogue of core/i18n; issue 30 item 3). */
defineIndonesianTitles<(typeof KEPENDUDUKAN_ERROR_CODES)[number]>({
  unit_exists: "Unit rumah sudah ada",
  unit_not_found: "Unit rumah tidak ditemukan",
  kk_number_taken: "Nomor KK sudah dipakai",
  nik_taken: "NIK sudah dipakai",
  plate_taken: "Nomor polisi sudah terdaftar",
  invalid_nik: "NIK tidak valid",
  invalid_kk_number: "Nomor KK tidak valid",
  unit_in_use: "Unit rumah masih dipakai",
  kk_head_required: "Kartu keluarga wajib memiliki kepala keluarga",
  household_member_not_found: "Anggota keluarga tidak ditemukan",
  person_not_found: "Data warga tidak ditemukan",
  person_not_in_household: "Data warga ini tidak tercatat di kartu keluarga rumah anggota tersebut",
});
