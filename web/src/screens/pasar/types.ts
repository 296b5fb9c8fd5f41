import { money } from "../../format";
import { t } from "../../i18n";

/** The pasar routes' shapes as the app reads them (src/modules/pasar/schemas.ts). */
export const CATEGORIES = ["makanan", "jasa", "barang_bekas", "kerajinan", "lainnya"] as const;
export const MAX_PHOTOS = 5;

export interface Listing {
  id: string;
  sellerId: string;
  sellerName: string | null;
  title: string;
  description: string;
  price: number | "nego";
  category: (typeof CATEGORIES)[number];
  condition: "baru" | "bekas" | null;
  status: "aktif" | "terjual" | "disembunyikan";
  photos: { id: string; url: string; contentType: string }[];
  whatsappUrl?: string | null;
  moderation?: { reason: string; at: string } | null;
  createdAt: string;
}

export const priceText = (price: Listing["price"]) => (price === "nego" ? t("pasar.nego") : money(price));
