// Demo content per RT tenant: news (two published, one draft), announcements (one urgent) and upcoming events.
// Seeded rows count as already sent (notified_version = version): demo data pushes nobody.
import MarkdownIt from "markdown-it";

// The API renders with these options (src/modules/konten/markdown.ts); the demo text has no links.
const md = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });

const BERITA = [
  {
    key: "kerja-bakti",
    title: "Kerja bakti membersihkan saluran air berhasil",
    body: "Terima kasih kepada **42 warga** yang hadir Minggu lalu.\n\n- Saluran blok A dan B sudah bersih\n- Sampah diangkut truk DLH Senin pagi\n\nKerja bakti berikutnya: minggu pertama bulan depan.",
    status: "terbit",
    daysAgo: 6,
  },
  {
    key: "posyandu",
    title: "Posyandu balita pindah ke balai RW",
    body: "Mulai bulan ini posyandu balita diadakan di **balai RW 05**, setiap Sabtu kedua pukul 08.00–11.00. Bawa buku KIA.",
    status: "terbit",
    daysAgo: 2,
  },
  {
    key: "draf-17an",
    title: "Rencana lomba 17 Agustus (draf)",
    body: "Usulan lomba: balap karung, tarik tambang, makan kerupuk. Menunggu rapat panitia.",
    status: "draft",
    daysAgo: 1,
  },
];

const PENGUMUMAN = [
  {
    key: "fogging",
    title: "Fogging DBD Jumat sore",
    body: "Petugas puskesmas melakukan **fogging** Jumat pukul 15.00. Tutup makanan dan minuman, keluarkan hewan peliharaan dari rumah.",
    urgent: true,
    channels: { push: true, whatsapp: true, email: false },
    daysAgo: 3,
  },
  {
    key: "air-mati",
    title: "Pemadaman air PAM Sabtu pagi",
    body: "PDAM memberitahukan pemadaman air **Sabtu pukul 09.00–12.00** karena perbaikan pipa. Mohon menampung air secukupnya.",
    urgent: false,
    channels: { push: true, whatsapp: true, email: false },
    daysAgo: 1,
  },
  {
    key: "iuran",
    title: "Iuran kebersihan bulan ini",
    body: "Iuran kebersihan Rp25.000 per rumah dapat dibayar ke bendahara paling lambat tanggal 10.",
    urgent: false,
    channels: { push: true, whatsapp: false, email: true },
    daysAgo: 4,
  },
];

const AGENDA = [
  { key: "rapat", title: "Rapat warga bulanan", place: "Balai warga", inDays: 3, hour: 19, hours: 2 },
  { key: "senam", title: "Senam pagi bersama", place: "Lapangan RW 05", inDays: 5, hour: 6, hours: 1 },
  { key: "posyandu", title: "Posyandu balita", place: "Balai RW 05", inDays: 9, hour: 8, hours: 3 },
];

const DAY = 86_400_000;

/** The instant of `hour`:00 WIB, `days` Jakarta days after the day of `now`. */
function jakartaAt(now, days, hour) {
  const day = new Date(now.getTime() + 7 * 3_600_000 + days * DAY).toISOString().slice(0, 10);
  return new Date(`${day}T${String(hour).padStart(2, "0")}:00:00+07:00`).toISOString();
}

export function tenantSql({ accounts, tenant, now: nowIso, q }) {
  const now = new Date(nowIso);
  const author =
    accounts.find((a) => a.tenant === tenant.id && a.roles.includes("sekretaris")) ??
    accounts.find((a) => a.tenant === tenant.id && a.roles.includes("admin"));
  if (!author) {
    return "";
  }
  const at = (daysAgo) => new Date(now.getTime() - daysAgo * DAY).toISOString();
  const lines = [];
  for (const b of BERITA) {
    const published = b.status === "terbit";
    lines.push(`INSERT OR IGNORE INTO berita (id, title, body, body_html, status, author_id, version, notified_version, published_at, created_at, updated_at)
VALUES (${q(`seed-berita-${tenant.slug}-${b.key}`)}, ${q(b.title)}, ${q(b.body)}, ${q(md.render(b.body))}, ${q(b.status)}, ${q(author.id)}, 1, ${published ? 1 : "NULL"}, ${published ? q(at(b.daysAgo)) : "NULL"}, ${q(at(b.daysAgo))}, ${q(at(b.daysAgo))});`);
  }
  for (const p of PENGUMUMAN) {
    lines.push(`INSERT OR IGNORE INTO pengumuman (id, title, body, body_html, urgent, channels, blocks, status, author_id, version, notified_version, published_at, created_at, updated_at)
VALUES (${q(`seed-pengumuman-${tenant.slug}-${p.key}`)}, ${q(p.title)}, ${q(p.body)}, ${q(md.render(p.body))}, ${p.urgent ? 1 : 0}, ${q(JSON.stringify(p.channels))}, NULL, 'terbit', ${q(author.id)}, 1, 1, ${q(at(p.daysAgo))}, ${q(at(p.daysAgo))}, ${q(at(p.daysAgo))});`);
  }
  for (const a of AGENDA) {
    const start = jakartaAt(now, a.inDays, a.hour);
    const end = new Date(Date.parse(start) + a.hours * 3_600_000).toISOString();
    lines.push(`INSERT OR IGNORE INTO agenda (id, title, description, place, starts_at, ends_at, author_id, created_at, updated_at)
VALUES (${q(`seed-agenda-${tenant.slug}-${a.key}`)}, ${q(a.title)}, ${q(`${a.title} untuk seluruh warga.`)}, ${q(a.place)}, ${q(start)}, ${q(end)}, ${q(author.id)}, ${q(now.toISOString())}, ${q(now.toISOString())});`);
  }
  return lines.join("\n");
}
