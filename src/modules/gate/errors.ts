import { defineIndonesianTitles } from "../../core/i18n";

/** This module's own problem codes: joined into ErrorCode (core/errors.ts) and the list src/app.ts builds. */
export const GATE_ERROR_CODES = [
  // Gate hardware events.
  "unsupported_event",
] as const;

declare module "../../core/errors" {
  interface ModuleErrorCodes {
    gate: (typeof GATE_ERROR_CODES)[number];
  }
}

/** The codes above in Indonesian (the catalogue of core/i18n; issue 30 item 3). */
defineIndonesianTitles<(typeof GATE_ERROR_CODES)[number]>({
  unsupported_event: "Jenis kejadian dari perangkat tidak didukung",
});
