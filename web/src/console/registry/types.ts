/** The registry's answers as the API documents them (src/modules/kependudukan/schemas.ts). */
export type KkStatus = "aktif" | "pindah" | "meninggal";
export const KK_STATUSES: KkStatus[] = ["aktif", "pindah", "meninggal"];
export const RELIGIONS = ["islam", "kristen", "katolik", "hindu", "buddha", "konghucu", "kepercayaan"];
export const EDUCATIONS = [
  "tidak_sekolah",
  "belum_tamat_sd",
  "sd",
  "smp",
  "sma",
  "d1_d2",
  "d3",
  "d4_s1",
  "s2",
  "s3",
];
export const MARITAL_STATUSES = ["belum_kawin", "kawin", "cerai_hidup", "cerai_mati"];
export const RESIDENCE_STATUSES = ["tetap", "kontrak", "kos"];
export const RELATIONSHIPS = [
  "kepala_keluarga",
  "suami",
  "istri",
  "anak",
  "menantu",
  "cucu",
  "orang_tua",
  "mertua",
  "famili_lain",
  "lainnya",
];
export const VEHICLE_KINDS = ["motor", "mobil", "lainnya"];
export const MUTATION_KINDS = ["lahir", "meninggal", "pindah_masuk", "pindah_keluar"] as const;

export interface UnitRef {
  id: string;
  block: string;
  number: string;
}

export interface Unit extends UnitRef {
  latitude: number | null;
  longitude: number | null;
  occupancy: "pemilik" | "penyewa" | "kosong" | null;
}

export interface CardSummary {
  id: string;
  kkNumber: string;
  unitId: string;
  unit: UnitRef | null;
  headName: string;
  headNik: string;
  status: KkStatus;
  statusDate: string | null;
  memberCount: number;
  createdAt: string;
}

export interface Member {
  id: string;
  familyCardId: string;
  name: string;
  nik: string;
  relationship: string;
  sex: "L" | "P";
  birthDate: string | null;
  birthPlace: string | null;
  religion: string | null;
  education: string | null;
  occupation: string | null;
  maritalStatus: string | null;
  citizenship: "WNI" | "WNA";
  livingStatus: "hidup" | "meninggal";
  deathDate: string | null;
  residenceStatus: string | null;
}

export interface Vehicle {
  id: string;
  plate: string;
  /** Registered under another spelling of a plate another vehicle had first (ADR 0047). */
  plateDuplicate: boolean;
  kind: string;
  brand: string | null;
  model: string | null;
  colour: string | null;
}

export interface CardDetail extends CardSummary {
  headWhatsapp: string | null;
  notes: string | null;
  members: Member[];
  vehicles: Vehicle[];
}

export const BASE = "/api/kependudukan";
export const HOME = "/pengurus/warga";
