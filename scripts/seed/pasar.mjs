// Demo marketplace (pasar): what neighbours really sell to each other, from the RT's demo residents.
// Listings only (no photos: those live in R2 and arrive through POST /api/files). One listing is
// hidden by the sekretaris with its reason, so the moderation view has something to show.

const LISTINGS = [
  // [key, seller (warga n), title, description, price (null = nego), category, condition, status]
  [
    "nasi-uduk",
    2,
    "Nasi uduk Bu Siti",
    "Nasi uduk komplit (telur balado, orek tempe, bihun, kerupuk). Pesan sebelum jam 21.00, diantar jam 06.00 ke rumah.",
    12000,
    "makanan",
    "baru",
    "aktif",
  ],
  [
    "servis-ac",
    3,
    "Jasa servis & cuci AC",
    "Cuci AC 1/2–2 PK, isi freon, bongkar pasang. Bergaransi 30 hari, warga RT dapat potongan.",
    null,
    "jasa",
    null,
    "aktif",
  ],
  [
    "sepeda",
    2,
    "Sepeda bekas Polygon 24 inci",
    "Sepeda anak SD, rem dan rantai baru diganti, ban masih tebal. Bisa dicoba dulu di rumah.",
    650000,
    "barang_bekas",
    "bekas",
    "aktif",
  ],
  [
    "kue-lapis",
    2,
    "Kue lapis legit (loyang 20×20)",
    "Lapis legit wisman, pesan H-2 untuk arisan atau Lebaran.",
    275000,
    "makanan",
    "baru",
    "aktif",
  ],
  [
    "tas-anyaman",
    1,
    "Tas anyaman pandan buatan PKK",
    "Tas belanja anyaman pandan, kuat dan bisa dicuci. Hasil kerajinan ibu-ibu PKK.",
    85000,
    "kerajinan",
    "baru",
    "aktif",
  ],
  [
    "les-mtk",
    3,
    "Les matematika SD–SMP",
    "Les privat di rumah, Senin–Kamis sore. Pengajar lulusan pendidikan matematika.",
    75000,
    "jasa",
    null,
    "aktif",
  ],
  [
    "kulkas",
    1,
    "Kulkas 2 pintu Sharp",
    "Masih dingin, pindah rumah jadi dijual. Ambil sendiri.",
    1200000,
    "barang_bekas",
    "bekas",
    "terjual",
  ],
  [
    "galon",
    2,
    "Antar galon & gas 3 kg",
    "Antar ke rumah dalam 30 menit, bayar di tempat.",
    23000,
    "lainnya",
    "baru",
    "aktif",
  ],
  [
    "obat",
    3,
    "Obat herbal penambah stamina",
    "Tanpa izin edar, hasil racikan sendiri.",
    50000,
    "lainnya",
    "baru",
    "disembunyikan",
  ],
];

export function tenantSql({ now, q, rt }) {
  if (!rt) {
    return "";
  }
  return LISTINGS.map(([key, n, title, description, price, category, condition, status], i) => {
    const hidden = status === "disembunyikan";
    // Ids are fixed for idempotency and ordered like ULIDs so the list reads newest first.
    const id = `seed-pasar-${rt}-${String(i).padStart(2, "0")}-${key}`;
    return `INSERT OR IGNORE INTO pasar_listings (id, seller_id, title, description, price, category, condition, status, moderation_reason, moderated_by, moderated_at, created_at, updated_at)
VALUES (${q(id)}, ${q(`seed-user-warga${n}-${rt}`)}, ${q(title)}, ${q(description)}, ${q(price)}, ${q(category)}, ${q(condition)}, ${q(status)}, ${q(hidden ? "Produk obat tanpa izin edar BPOM tidak boleh dijual di Pasar RT." : null)}, ${q(hidden ? `seed-user-sekretaris-${rt}` : null)}, ${q(hidden ? now : null)}, ${q(now)}, ${q(now)});`;
  }).join("\n");
}
