import { defineIndonesianTitles } from "../../core/i18n";

/** This module's own problem codes: joined into ErrorCode (core/errors.ts) and the list src/app.ts builds. */
export const HIERARCHY_ERROR_CODES = [
  // RW links and their consent (issues 13, 27).
  "link_request_pending",
  "no_link_request",
  "not_rt_tenant",
  "invalid_child",
  "already_linked",
  // Limits on asking (issue 44 P9).
  "link_request_cooldown",
  "link_request_limit",
] as const;

declare module "../../core/errors" {
  interface ModuleErrorCodes {
    hierarchy: (typeof HIERARCHY_ERROR_CODES)[number];
  }
}

/** The codes above in Indonesian (the catalogue of core/i18n; issue 30 item 3). */
defineIndonesianTitles<(typeof HIERARCHY_ERROR_CODES)[number]>({
  link_request_pending: "Permintaan penautan masih menunggu",
  no_link_request: "Tidak ada permintaan penautan",
  not_rt_tenant: "Hanya komunitas RT yang dapat melakukan ini",
  invalid_child: "RT ini tidak dapat ditautkan",
  already_linked: "RT ini sudah tertaut",
  link_request_cooldown: "Belum dapat meminta RT ini lagi",
  link_request_limit: "Terlalu banyak permintaan penautan",
});
