/** The surat routes' shapes as the app reads them (src/modules/surat/schemas.ts). */
export type LetterStatus = "diajukan" | "diproses" | "perlu_perbaikan" | "selesai" | "ditolak" | "dibatalkan";

export interface JenisField {
  name: string;
  label: string;
  type: "text" | "textarea" | "number" | "money" | "date" | "datetime" | "select" | "member" | "members";
  required: boolean;
  options: { value: string; label: string }[] | null;
  requiredUnless: string | null;
  pattern: string | null;
}

export interface Jenis {
  code: string;
  name: string;
  description: string;
  validityDays: number | null;
  identity: { name: string; label: string }[];
  fields: JenisField[];
}

export interface LetterEvent {
  status: string;
  note: string | null;
  byStaff: boolean;
  createdAt: string;
}

export interface Letter {
  id: string;
  jenis: string;
  jenisName: string;
  onBehalfOf: string;
  subjectName: string;
  keperluan: string;
  fields: Record<string, unknown>;
  status: LetterStatus;
  nomorSurat: string | null;
  tanggalSurat: string | null;
  note: string | null;
  pdfAvailable: boolean;
  /** Finished, waiting for the RW's acknowledgement: no PDF for the resident yet (issue 45). */
  awaitingRw?: boolean;
  history?: LetterEvent[];
  createdAt: string;
  updatedAt: string;
}

/** A member of the caller's household (GET /api/kependudukan/household): whom a letter may be for. */
export interface HouseholdMember {
  id: string;
  name: string;
  relationship: string;
  livingStatus: "hidup" | "meninggal";
  isMe: boolean;
}
export interface Household {
  personId: string | null;
  members: HouseholdMember[];
}

/** A letter the resident may still cancel (the API's rule: not finished, refused or cancelled). */
export const CANCELLABLE: ReadonlySet<LetterStatus> = new Set(["diajukan", "diproses", "perlu_perbaikan"]);
