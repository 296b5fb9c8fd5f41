// The rules, service hours and agenda each demo RT's staff wrote for the resident assistant (info_rt).
const INFO = {
  "rt-01-sukamaju": {
    rules: [
      "Portal utama ditutup pukul 22.00–05.00 WIB; warga masuk lewat pos ronda Blok A.",
      "Sekretariat RT buka Sabtu 09.00–12.00 WIB di rumah Ketua RT (Blok A No. 1).",
      "Iuran bulanan Rp25.000 per rumah (kebersihan dan keamanan), dibayar paling lambat tanggal 10.",
      "Sampah diangkut Selasa dan Jumat pagi; taruh di depan rumah sebelum pukul 07.00.",
      "Tamu yang menginap lebih dari 1×24 jam wajib didaftarkan lewat menu Tamu.",
    ].join("\n"),
    agenda:
      "Kerja bakti bulanan: Minggu pertama tiap bulan, 07.00 WIB, kumpul di pos ronda.\nPosyandu: Rabu kedua tiap bulan, 08.00 WIB, di balai warga.",
  },
  "rt-02-sukamaju": {
    rules: [
      "Portal Blok D ditutup pukul 23.00 WIB.",
      "Sekretariat RT buka Minggu 10.00–12.00 WIB di balai warga.",
      "Iuran bulanan Rp30.000 per rumah, dibayar paling lambat tanggal 15.",
      "Kendaraan tamu parkir di lapangan, bukan di badan jalan.",
    ].join("\n"),
    agenda:
      "Arisan ibu-ibu: Jumat ketiga tiap bulan, 16.00 WIB.\nRonda malam bergilir: jadwal di grup WhatsApp RT.",
  },
};

export function tenantSql({ tenant, now, q }) {
  const info = INFO[tenant.slug];
  if (!info) {
    return "";
  }
  return `INSERT OR IGNORE INTO asisten_info (id, rules, agenda, updated_at, updated_by) VALUES ('rt', ${q(info.rules)}, ${q(info.agenda)}, ${q(now)}, NULL);`;
}
