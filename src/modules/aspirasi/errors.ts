import { defineIndonesianTitles } from "../../core/i18n";

/** This module's own problem codes: joined into ErrorCode (core/errors.ts) and the list src/app.ts builds. */
export const ASPIRASI_ERROR_CODES = [
  // Complaints, suggestions and proposals.
  "response_required",
  "own_proposal",
  "already_endorsed",
  "proposal_closed",
] as const;

declare module "../../core/errors" {
  interface ModuleErrorCodes {
    aspirasi: (typeof ASPIRASI_ERROR_CODES)[number];
  }
}

/** The codes above in Indonesian (the catalogue of core/i18n; issue 30 item 3). */
defineIndonesianTitles<(typeof ASPIRASI_ERROR_CODES)[number]>({
  response_required: "Tanggapan wajib diisi",
  own_proposal: "Anda tidak dapat mendukung usulan Anda sendiri",
  already_endorsed: "Anda sudah mendukung usulan ini",
  proposal_closed: "Usulan ini sudah ditutup",
});
