import type { TenantRole } from "../../core/context";
import type { FeatureFlag } from "../../core/flags";
import { ROLES } from "../../core/http/access";

/**
 * What a stored file is for. The purpose decides who may upload it through `POST /api/files`, who may
 * read it back through `GET /api/files/:id`, and which module may accept it (`requireTenantFile`).
 * A new kind of file is a new entry here, with its rules written next to it.
 */
export const FILE_PURPOSES = [
  "bukti_bayar",
  "nota",
  "lampiran_kas",
  "sampul",
  "pengaduan",
  "pasar",
  "galeri",
  "tamu",
] as const;
export type FilePurpose = (typeof FILE_PURPOSES)[number];

export interface PurposePolicy {
  /** Who may upload it through `POST /api/files`; null: only its module's own route stores it. */
  upload: readonly TenantRole[] | null;
  /** Who may read it besides the member who uploaded it. */
  read: readonly TenantRole[];
  /** The feature that must be on for the tenant. */
  flag?: FeatureFlag;
}

export const PURPOSE_POLICY: Readonly<Record<FilePurpose, PurposePolicy>> = {
  /** A resident's proof of payment (dues, donations): their own business and the treasurer's. */
  bukti_bayar: { upload: ROLES.MEMBER, read: ROLES.FINANCE },
  /** A receipt behind an expense: the cash book is open to every member, so is its evidence. */
  nota: { upload: ROLES.FINANCE, read: ROLES.MEMBER },
  /** An attachment to a cash-book entry, open like the entry itself. */
  lampiran_kas: { upload: ROLES.FINANCE, read: ROLES.MEMBER },
  /** A cover image (a campaign's, a news article's): shown to everyone. */
  sampul: { upload: ROLES.STAFF, read: ROLES.MEMBER },
  /** Evidence with a complaint: the complainant and the staff who handle it. */
  pengaduan: { upload: ROLES.MEMBER, read: ROLES.STAFF },
  /** A marketplace listing's photo: uploaded by any member, attached to their listing. */
  pasar: { upload: ROLES.MEMBER, read: ROLES.MEMBER, flag: "pasar" },
  /** A gallery photo: stored by `POST /api/galeri/:id/foto` together with its album entry. */
  galeri: { upload: null, read: ROLES.MEMBER },
  /**
   * A walk-in's photo at the gate: stored by `POST /api/visitor/:id/foto` (the guard), read by the gate
   * and staff here; the host's household reads it through `GET /api/visitor/:id/foto`, which checks the
   * walk-in is to their house (a neighbour gets 404).
   */
  tamu: { upload: null, read: ROLES.GATE, flag: "tamu" },
};
