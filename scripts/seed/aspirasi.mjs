// Demo complaints and aspirations per RT: three complaints (new, in progress with a staff response, done),
// their threads as the routes write them (the resident's opening line, then each staff status change),
// two suggestions (one anonymous: no sender stored at all) and a proposal with two endorsements.

const HOUR = 3_600_000;
const DAY = 86_400_000;

export function tenantSql({ now: nowIso, q, rt, resident }) {
  if (!rt) {
    return "";
  }
  const now = new Date(nowIso).getTime();
  const at = (ms) => new Date(now - ms).toISOString();
  const block = rt === "rt01" ? "A" : "B";
  const staff = `seed-user-sekretaris-${rt}`;

  const complaints = [
    {
      key: "lampu",
      by: resident(1),
      title: `Lampu jalan Blok ${block} mati`,
      description: `Lampu jalan di ujung gang Blok ${block} mati sejak tiga hari lalu, jalan gelap sekali setelah magrib.`,
      category: "infrastruktur",
      location: `Ujung gang Blok ${block}`,
      status: "baru",
      created: 5 * HOUR,
      thread: [],
    },
    {
      key: "selokan",
      by: resident(3),
      title: `Selokan tersumbat di depan rumah ${block}3`,
      description: "Selokan tersumbat sampah plastik, air meluap ke jalan kalau hujan deras.",
      category: "kebersihan",
      location: `Depan rumah ${block}3`,
      status: "diproses",
      created: 3 * DAY,
      thread: [
        {
          status: "diproses",
          body: "Terima kasih laporannya. Sudah kami teruskan ke petugas kebersihan, dijadwalkan dibersihkan Sabtu pagi.",
          ago: 2 * DAY,
        },
      ],
    },
    {
      key: "anjing",
      by: resident(2),
      title: "Anjing liar berkeliaran malam hari",
      description:
        "Ada dua anjing liar yang sering menggonggong dan mengejar pengendara motor di gang setelah pukul 22.00.",
      category: "keamanan",
      location: `Gang Blok ${block}`,
      status: "selesai",
      created: 10 * DAY,
      thread: [
        { status: "diproses", body: "Kami koordinasikan dengan petugas ronda.", ago: 9 * DAY },
        {
          status: "selesai",
          body: "Anjing sudah dievakuasi oleh Dinas Pertanian dan Ketahanan Pangan. Terima kasih atas kesabarannya.",
          ago: 6 * DAY,
        },
      ],
    },
  ];

  const lines = [];
  for (const c of complaints) {
    const id = `seed-complaint-${rt}-${c.key}`;
    const updated = c.thread.at(-1)?.ago ?? c.created;
    lines.push(`INSERT OR IGNORE INTO complaints (id, resident_id, unit_id, title, description, category, photo, location, status, revision, created_at, updated_at)
VALUES (${q(id)}, ${q(c.by.id)}, ${q(c.by.unit.id)}, ${q(c.title)}, ${q(c.description)}, ${q(c.category)}, NULL, ${q(c.location)}, ${q(c.status)}, ${c.thread.length + 1}, ${q(at(c.created))}, ${q(at(updated))});`);
    lines.push(`INSERT OR IGNORE INTO complaint_messages (id, complaint_id, author_id, by_staff, status, body, created_at)
VALUES (${q(`${id}-m0`)}, ${q(id)}, ${q(c.by.id)}, 0, 'baru', NULL, ${q(at(c.created))});`);
    c.thread.forEach((m, i) => {
      lines.push(`INSERT OR IGNORE INTO complaint_messages (id, complaint_id, author_id, by_staff, status, body, created_at)
VALUES (${q(`${id}-m${i + 1}`)}, ${q(id)}, ${q(staff)}, 1, ${q(m.status)}, ${q(m.body)}, ${q(at(m.ago))});`);
    });
  }

  lines.push(`INSERT OR IGNORE INTO suggestions (id, sender_id, anonymous, body, read_at, read_by, created_at)
VALUES (${q(`seed-saran-${rt}-anonim`)}, NULL, 1, 'Mohon iuran keamanan dilaporkan rinciannya tiap bulan di grup warga.', NULL, NULL, ${q(at(DAY))});`);
  lines.push(`INSERT OR IGNORE INTO suggestions (id, sender_id, anonymous, body, read_at, read_by, created_at)
VALUES (${q(`seed-saran-${rt}-senam`)}, ${q(resident(2).id)}, 0, 'Bagaimana kalau senam pagi diadakan dua kali seminggu? Banyak ibu-ibu yang berminat.', ${q(at(2 * DAY))}, ${q(staff)}, ${q(at(4 * DAY))});`);

  const proposal = `seed-usulan-${rt}-cctv`;
  const endorsers = [resident(2), resident(3)];
  lines.push(`INSERT OR IGNORE INTO proposals (id, resident_id, title, description, estimated_cost, status, note, endorsements, decided_by, decided_at, created_at, updated_at)
VALUES (${q(proposal)}, ${q(resident(1).id)}, 'Pasang CCTV di pintu masuk gang', 'Dua kamera CCTV di pintu masuk gang dan pos ronda, rekaman disimpan 30 hari, untuk mencegah pencurian motor.', 3500000, 'diajukan', NULL, ${endorsers.length}, NULL, NULL, ${q(at(5 * DAY))}, ${q(at(3 * DAY))});`);
  endorsers.forEach((u, i) => {
    lines.push(`INSERT OR IGNORE INTO proposal_endorsements (proposal_id, user_id, created_at)
VALUES (${q(proposal)}, ${q(u.id)}, ${q(at((4 - i) * DAY))});`);
  });
  return lines.join("\n");
}
