/** What the konten, aspirasi and pasar routes answer (their schemas.ts). */
export type PostKind = "pengumuman" | "berita";

export interface Post {
  id: string;
  title: string;
  body: string;
  bodyHtml: string;
  status: "draft" | "terbit";
  version: number;
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** Announcements only. */
  urgent?: boolean;
  channels?: { push: boolean; whatsapp: boolean; email: boolean };
  audience?: { scope: "semua" | "blok"; blocks?: string[] };
  deliveryPending?: boolean;
}

export interface ChannelDelivery {
  total: number;
  queued: number;
  scheduled: number;
  sent: number;
  failed: number;
  skipped: number;
  skippedReasons: Record<string, number>;
}

export interface DeliverySummary {
  id: string;
  version: number | null;
  deliveryPending: boolean;
  /** Absent only when the messaging service answers without its log. */
  channels?: { push: ChannelDelivery; whatsapp: ChannelDelivery; email: ChannelDelivery };
}

export interface Complaint {
  id: string;
  residentId: string;
  residentName?: string | null;
  title: string;
  description: string;
  category: string;
  photo: string | null;
  location: string | null;
  status: "baru" | "diproses" | "selesai" | "ditolak";
  thread?: { byStaff: boolean; status: string | null; body: string | null; createdAt: string }[];
  createdAt: string;
  updatedAt: string;
}

export interface Suggestion {
  id: string;
  anonymous: boolean;
  senderId: string | null;
  senderName: string | null;
  body: string;
  readAt: string | null;
  createdAt: string;
}

export interface Proposal {
  id: string;
  title: string;
  description: string;
  estimatedCost: number | null;
  status: "diajukan" | "diterima" | "ditolak";
  note: string | null;
  endorsements: number;
  createdAt: string;
}

export interface Listing {
  id: string;
  sellerName: string | null;
  title: string;
  description: string;
  price: number | "nego";
  status: "aktif" | "terjual" | "disembunyikan";
  createdAt: string;
}
