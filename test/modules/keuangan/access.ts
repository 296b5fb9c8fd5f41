import { type AccessTable, ADMIN, FINANCE, pub, R, R_FINANCE, R_S, S, user } from "../../helpers/access";

/** Who may call each route of the keuangan module, and why (reading rules: test/helpers/access.ts). */
export const ACCESS: AccessTable = {
  // Finance (issue 14): "bendahara writes, admin approves where noted and reads everything, sekretaris
  // reads, warga sees their own bills, campaigns and the published report". Writes are the finance
  // group (bendahara, and admin who reads and approves everything); reads are S; the budget and the
  // expense decision are the admin's ("(admin)"), a bendahara cannot approve. Campaigns: staff create
  // and edit, visible to residents; donations by a resident (pledge) or the bendahara (cash). No flag.
  "GET /api/iuran/jenis": { who: S },
  "POST /api/iuran/jenis": { who: FINANCE },
  "PUT /api/iuran/jenis/:id": { who: FINANCE },
  // Issue 46: what a generation would issue, before it does: the same group as the generation.
  "GET /api/iuran/tagihan/pratinjau": { who: FINANCE },
  "POST /api/iuran/tagihan/generate": { who: FINANCE },
  "GET /api/iuran/tagihan": { who: S },
  "POST /api/iuran/tagihan/:id/pembayaran": { who: FINANCE },

  // Reversing a payment is the same write as recording one, undone: the finance group.
  "POST /api/iuran/pembayaran/:id/pembatalan": { who: FINANCE },
  "POST /api/iuran/tagihan/:id/bayar-online": { who: R },
  // Issue 45: several bills of the caller's own household in one checkout, like one bill above.
  "POST /api/iuran/bayar-online": { who: R },
  "GET /api/iuran/mine": { who: R },
  "GET /api/iuran/tunggakan": { who: S },
  // Issue 45: what moved-out families still owe, beside the units' arrears: the same readers.
  "GET /api/iuran/tunggakan/pindah": { who: S },
  // Issue 45: a moved-out family's members, in their grace period, see and pay that family's own debt.
  // The grace membership holds no role, so these are user-level; which bills are reachable is decided
  // per call (keuangan/iuran/tanggungan.ts), tested in keuangan.test.ts.
  "GET /api/user/tanggungan": user,
  "POST /api/user/tanggungan/bayar": user,
  "POST /api/iuran/pengingat": { who: FINANCE },
  "GET /api/kas": { who: S },
  "POST /api/kas": { who: FINANCE },
  "POST /api/kas/:id/koreksi": { who: FINANCE },
  "GET /api/anggaran": { who: S },
  "PUT /api/anggaran/:tahun": { who: ADMIN },
  "GET /api/pengeluaran": { who: S },
  "POST /api/pengeluaran": { who: FINANCE },
  // Issue 31 N5: "when the head submits, another officer decides": the finance group reaches the
  // decision; the verb lets a bendahara decide only what a head submitted, never anyone their own.
  "PUT /api/pengeluaran/:id": { who: FINANCE },
  "GET /api/kampanye": { who: R_S },
  "POST /api/kampanye": { who: S },
  "GET /api/kampanye/:id": { who: R_S },
  "PUT /api/kampanye/:id": { who: S },
  "POST /api/kampanye/:id/donasi": { who: R_FINANCE },
  "PUT /api/kampanye/:id/donasi/:donationId": { who: FINANCE },
  "GET /api/laporan/keuangan": { who: S },
  "GET /api/keuangan/pengaturan": { who: S },
  "PUT /api/keuangan/pengaturan": { who: ADMIN },
  "GET /api/public/tenants/:slug/laporan": pub,
};
