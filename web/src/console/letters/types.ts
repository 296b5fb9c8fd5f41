import type { Letter as ResidentLetter } from "../../screens/surat/types";

/** A letter as the staff's routes answer it (src/modules/surat/schemas.ts `Letter`). */
export interface StaffLetter extends ResidentLetter {
  residentName?: string | null;
  verificationUrl: string | null;
  /** The subject's particulars as the letter prints them, from the registry (staff only). */
  subject?: { name: string; label: string; value: string }[];
  rwAcknowledgement: {
    status: "menunggu" | "diketahui" | "ditolak" | "tanpa_rw";
    name: string | null;
    title: string | null;
    at: string | null;
    reason: string | null;
  } | null;
}

/** The letter settings (`GET /api/surat/settings`). */
export interface LetterSettings {
  tenantName: string;
  rt: string | null;
  rw: string | null;
  kelurahan: string | null;
  villageKind: "kelurahan" | "desa";
  kecamatan: string | null;
  kota: string | null;
  provinsi: string | null;
  address: string | null;
  logoDataUrl: string | null;
  headName: string | null;
  headTitle: string;
  numberFormat: string;
  rwAcknowledgement: boolean;
  rwLinked: boolean;
  missing: string[];
  updatedAt: string | null;
}

export const QUEUE_STATUSES = [
  "diajukan",
  "diproses",
  "perlu_perbaikan",
  "selesai",
  "ditolak",
  "dibatalkan",
] as const;
