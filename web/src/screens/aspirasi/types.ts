/** The aspirasi routes' shapes as the app reads them (src/modules/aspirasi/schemas.ts). */
export const CATEGORIES = [
  "kebersihan",
  "keamanan",
  "infrastruktur",
  "sosial",
  "administrasi",
  "lainnya",
] as const;
export type Category = (typeof CATEGORIES)[number];

export interface Complaint {
  id: string;
  title: string;
  description: string;
  category: Category;
  photo: string | null;
  location: string | null;
  status: "baru" | "diproses" | "selesai" | "ditolak";
  thread?: { byStaff: boolean; status: string | null; body: string | null; createdAt: string }[];
  createdAt: string;
  updatedAt: string;
}

export interface Proposal {
  id: string;
  residentId: string;
  title: string;
  description: string;
  estimatedCost: number | null;
  status: "diajukan" | "diterima" | "ditolak";
  note: string | null;
  endorsements: number;
  endorsedByMe: boolean;
  createdAt: string;
}
