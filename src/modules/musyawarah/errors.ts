import { defineIndonesianTitles } from "../../core/i18n";

/** This module's own problem codes: joined into ErrorCode (core/errors.ts) and the list src/app.ts builds. */
export const MUSYAWARAH_ERROR_CODES = [
  // Polls and voting (src/durable/PollTally.ts throws them too).
  "invalid_schedule",
  "invalid_max_choices",
  "invalid_choice",
  "not_eligible",
  "already_voted",
  "poll_not_open",
  "poll_not_started",
  "poll_ended",
  "poll_closed",
  "poll_has_ballots",
] as const;

declare module "../../core/errors" {
  interface ModuleErrorCodes {
    musyawarah: (typeof MUSYAWARAH_ERROR_CODES)[number];
  }
}

/** The codes above in Indonesian (the catalogue of core/i18n; issue 30 item 3). */
defineIndonesianTitles<(typeof MUSYAWARAH_ERROR_CODES)[number]>({
  invalid_schedule: "Jadwal pemungutan suara tidak valid",
  invalid_max_choices: "Jumlah pilihan maksimum tidak valid",
  invalid_choice: "Pilihan tidak valid",
  not_eligible: "Anda tidak berhak memilih di sini",
  already_voted: "Anda sudah memberikan suara",
  poll_not_open: "Pemungutan suara belum dibuka",
  poll_not_started: "Pemungutan suara belum dimulai",
  poll_ended: "Pemungutan suara sudah berakhir",
  poll_closed: "Pemungutan suara sudah ditutup",
  poll_has_ballots: "Pemungutan suara sudah memiliki suara masuk",
});
