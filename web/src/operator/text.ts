import { catalog } from "../console/text";

/** The operator's console's own shared words (its frame); each area keeps its own beside it. */
export const ox = catalog({
  id: {
    title: "Operator platform",
    nav: "Menu operator",
    notForYou: "Halaman ini hanya untuk operator platform.",
    support: "Tiket dukungan",
    communities: "Komunitas",
    billing: "Tagihan langganan",
    health: "Kesehatan & operasi",
    operations: "Pengiriman, data & arsip",
    missing: "Halaman ini tidak ada di konsol operator.",
  },
  en: {
    title: "Platform operator",
    nav: "Operator menu",
    notForYou: "This page is for platform operators only.",
    support: "Support tickets",
    communities: "Communities",
    billing: "Subscription billing",
    health: "Health & operations",
    operations: "Deliveries, data & archives",
    missing: "This page does not exist in the operator's console.",
  },
});
