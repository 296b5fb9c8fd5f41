// Demo guest book (buku tamu) per RT: a guest awaiting approval, one approved for today, one refused, and
// one who came yesterday and has checked in and out. The QR pass is signed at read time from the approval
// (visitor/pass.ts), so only its window is stored: the same window the approval route computes.

const HOUR = 3_600_000;
const DAY = 86_400_000;
const JAKARTA_MS = 7 * HOUR;

/** The instant of `hour`:`minute` WIB, `days` Jakarta days after the day of `now`. */
function jakartaAt(now, days, hour, minute = 0) {
  const day = new Date(now.getTime() + JAKARTA_MS + days * DAY).toISOString().slice(0, 10);
  const hh = String(hour).padStart(2, "0");
  const mm = String(minute).padStart(2, "0");
  return new Date(`${day}T${hh}:${mm}:00+07:00`).toISOString();
}

/** visitor/pass.ts defaultWindow: an hour before the visit to the end of that Jakarta day. */
function passWindow(visitAt) {
  const visit = new Date(visitAt);
  const day = new Date(visit.getTime() + JAKARTA_MS).toISOString().slice(0, 10);
  const dayEnd = new Date(Date.parse(`${day}T00:00:00+07:00`) + DAY - 1000);
  return { from: new Date(visit.getTime() - HOUR).toISOString(), until: dayEnd.toISOString() };
}

const GUESTS = {
  rt01: ["Rina Marlina", "Dedi Kurniawan (kurir JNE)", "Yusuf Hidayat", "Hendro Saputra"],
  rt02: ["Wulan Sari", "Fajar Nugroho (kurir SiCepat)", "Bambang Irawan", "Lestari Handayani"],
};

export function tenantSql({ now: nowIso, q, rt, resident }) {
  if (!rt) {
    return "";
  }
  const now = new Date(nowIso);
  const iso = (ms) => new Date(ms).toISOString();
  const admin = `seed-user-admin-${rt}`;
  // RT 01 has a gate guard (satpam); in RT 02 the secretary checks guests in.
  const guard = rt === "rt01" ? "seed-user-satpam-rt01" : `seed-user-sekretaris-${rt}`;
  const [g1, g2, g3, g4] = GUESTS[rt];
  const plate = rt === "rt01" ? "B 4821 KZT" : "B 3317 PQR";

  // Approved for today: a visit two hours from now (if that crosses midnight, the window follows it).
  const todayVisit = iso(Math.floor((now.getTime() + 2 * HOUR) / 60_000) * 60_000);
  const yesterdayVisit = jakartaAt(now, -1, 16);
  const rows = [
    {
      key: "menunggu",
      host: resident(1),
      guest: g1,
      purpose: "Kunjungan keluarga",
      visitAt: jakartaAt(now, 1, 10),
      plate,
      identity: "KTP",
      status: "menunggu",
      createdAt: iso(now.getTime() - 3 * HOUR),
    },
    {
      key: "disetujui",
      host: resident(2),
      guest: g2,
      purpose: "Antar paket",
      visitAt: todayVisit,
      plate: "B 6612 UJK",
      identity: "0812-7788-1203",
      status: "disetujui",
      decidedAt: iso(now.getTime() - 30 * 60_000),
      createdAt: iso(now.getTime() - 2 * HOUR),
    },
    {
      key: "selesai",
      host: resident(3),
      guest: g3,
      purpose: "Servis AC",
      visitAt: yesterdayVisit,
      plate: "B 1945 TKA",
      identity: "KTP",
      status: "disetujui",
      decidedAt: iso(Date.parse(yesterdayVisit) - 5 * HOUR),
      checkedInAt: iso(Date.parse(yesterdayVisit) + 5 * 60_000),
      checkedOutAt: iso(Date.parse(yesterdayVisit) + 150 * 60_000),
      createdAt: iso(Date.parse(yesterdayVisit) - 6 * HOUR),
    },
    {
      key: "ditolak",
      host: resident(1),
      guest: g4,
      purpose: "Penawaran produk asuransi",
      visitAt: jakartaAt(now, 0, 13),
      // The spec: plate and identity are given at registration (issue 42); the community requires both.
      plate: "B 2210 SOP",
      identity: "KTP",
      status: "ditolak",
      note: "Penghuni tidak mengenal tamu dan tidak sedang menunggu kunjungan",
      decidedAt: iso(now.getTime() - HOUR),
      createdAt: iso(now.getTime() - 5 * HOUR),
    },
  ];
  return rows
    .map((v) => {
      const approved = v.status === "disetujui";
      const window = approved ? passWindow(v.visitAt) : null;
      const updatedAt = v.checkedOutAt ?? v.decidedAt ?? v.createdAt;
      return `INSERT OR IGNORE INTO visitors (id, resident_id, unit_id, guest_name, purpose, visit_at, vehicle_plate, identity, status, note, decided_by, decided_at, pass_valid_from, pass_valid_until, notified_at, checked_in_at, checked_in_by, checked_out_at, checked_out_by, created_at, updated_at)
VALUES (${q(`seed-visitor-${rt}-${v.key}`)}, ${q(v.host.id)}, ${q(v.host.unit.id)}, ${q(v.guest)}, ${q(v.purpose)}, ${q(v.visitAt)}, ${q(v.plate)}, ${q(v.identity)}, ${q(v.status)}, ${q(v.note)}, ${q(v.decidedAt ? admin : null)}, ${q(v.decidedAt)}, ${q(window?.from)}, ${q(window?.until)}, ${q(approved ? v.decidedAt : null)}, ${q(v.checkedInAt)}, ${q(v.checkedInAt ? guard : null)}, ${q(v.checkedOutAt)}, ${q(v.checkedOutAt ? guard : null)}, ${q(v.createdAt)}, ${q(updatedAt)});`;
    })
    .join("\n");
}
