// The peer workload's data: one tenant with the same registry size as the OpenSID install it is
// compared with (5,862 persons in 1,669 families), written straight into its D1 database through the
// bench's own workerd (fast and idempotent: a second run finds it complete and writes nothing).
// Not the dev seed: `npm run dev` keeps its small demo communities.

export const PEER = {
  slug: "bench-peer-opensid",
  name: "RT Pembanding OpenSID",
  families: Number(process.env.BENCH_PEER_FAMILIES ?? 1669),
  persons: Number(process.env.BENCH_PEER_PERSONS ?? 5862),
};

/** The registry issue's size (5,000 KK, 18,000 persons), the same reads measured on three times the data. */
export const LARGE_PEER = {
  slug: "bench-registry-18k",
  name: "RT Registri Besar",
  families: Number(process.env.BENCH_LARGE_FAMILIES ?? 5000),
  persons: Number(process.env.BENCH_LARGE_PERSONS ?? 18000),
};

const FIRST_M = ["Agus", "Budi", "Dedi", "Eko", "Fajar", "Hendra", "Joko", "Rudi", "Slamet", "Yusuf"];
const FIRST_F = ["Ani", "Dewi", "Fitri", "Lestari", "Nur", "Rina", "Siti", "Sri", "Wati", "Yuni"];
const LAST = [
  "Hidayat",
  "Kurniawan",
  "Lubis",
  "Nasution",
  "Pratama",
  "Santoso",
  "Saputra",
  "Setiawan",
  "Siregar",
  "Wibowo",
  "Gunawan",
  "Susanto",
  "Rahmawati",
];
const PLACES = ["Bandung", "Bekasi", "Bogor", "Cimahi", "Garut", "Jakarta", "Depok", "Sumedang"];
const BLOCKS = ["A", "B", "C", "D", "E", "F", "G", "H"];

const q = (v) => (v === null || v === undefined ? "NULL" : `'${String(v).replace(/'/g, "''")}'`);
const pad = (n, width) => String(n).padStart(width, "0");

function person(i, sex) {
  const first = (sex === "L" ? FIRST_M : FIRST_F)[i % 10];
  return `${first} ${LAST[(i * 7) % LAST.length]}`;
}

/** Deterministic rows: family f has a head and 2 or 3 more members; houses 1..N hold one or two KK. */
export function peerRows({ families, persons }) {
  const units = [];
  const cards = [];
  const members = [];
  const extra = persons - families;
  const perFamily = Math.floor(extra / families);
  const withOneMore = extra - perFamily * families;
  const houses = Math.ceil(families * 0.9);
  const now = "2026-01-01T00:00:00.000Z";
  for (let h = 0; h < houses; h++) {
    units.push({ id: `peer-unit-${pad(h, 5)}`, block: BLOCKS[h % 8], number: String(Math.floor(h / 8) + 1) });
  }
  let p = 0;
  for (let f = 0; f < families; f++) {
    const id = `peer-kk-${pad(f, 5)}`;
    const headSex = f % 5 === 4 ? "P" : "L";
    const headName = person(f, headSex);
    const headNik = `3273${pad(p, 12)}`;
    cards.push({
      id,
      kk_number: `3273${pad(900000000000 + f, 12)}`,
      unit_id: units[f % houses].id,
      head_name: headName,
      head_nik: headNik,
      head_whatsapp: `62812${pad(f, 7)}`,
      updated_at: now,
    });
    const size = perFamily + (f < withOneMore ? 1 : 0);
    const rows = [{ name: headName, sex: headSex, relationship: "kepala_keluarga", age: 35 + (f % 30) }];
    for (let m = 0; m < size; m++) {
      const sex = m % 2 === 0 ? (headSex === "L" ? "P" : "L") : f % 2 === 0 ? "L" : "P";
      const relationship = m === 0 ? (headSex === "L" ? "istri" : "suami") : "anak";
      rows.push({
        name: person(f + m + 3, sex),
        sex,
        relationship,
        age: m === 0 ? 33 + (f % 28) : 2 + ((f + m) % 20),
      });
    }
    for (const r of rows) {
      const year = 2026 - r.age;
      members.push({
        id: `peer-person-${pad(p, 6)}`,
        family_card_id: id,
        name: r.name,
        nik: `3273${pad(p, 12)}`,
        relationship: r.relationship,
        sex: r.sex,
        birth_date: `${year}-${pad((p % 12) + 1, 2)}-${pad((p % 28) + 1, 2)}`,
        birth_place: PLACES[p % PLACES.length],
        updated_at: now,
      });
      p++;
    }
  }
  return { units, cards, members };
}

function inserts(table, rows, chunk = 400) {
  const statements = [];
  const columns = Object.keys(rows[0]);
  for (let i = 0; i < rows.length; i += chunk) {
    const values = rows
      .slice(i, i + chunk)
      .map((r) => `(${columns.map((c) => q(r[c])).join(",")})`)
      .join(",");
    statements.push(`INSERT OR IGNORE INTO ${table} (${columns.join(",")}) VALUES ${values}`);
  }
  return statements;
}

/**
 * Makes sure a peer tenant (`PEER` unless told otherwise) exists (created through the operator route, so its slot is claimed and
 * migrated the way production does it) and holds the full registry. Returns the tenant and ids the
 * bench reads.
 */
export async function ensurePeerTenant({ url, mf, operatorToken, peer = PEER }) {
  const created = await fetch(`${url}/api/platform/tenants`, {
    method: "POST",
    headers: { Authorization: `Bearer ${operatorToken}`, "Content-Type": "application/json" },
    // A community starts with its first admin invited (issue 27); the bench reads as its own staff.
    body: JSON.stringify({
      slug: peer.slug,
      name: peer.name,
      type: "RT",
      admin: { name: "Ketua Pembanding", email: `admin.${peer.slug}@bench.warga.test` },
    }),
  });
  if (created.status !== 201 && created.status !== 409) {
    throw new Error(`peer tenant: ${created.status} ${await created.text()}`);
  }
  const platform = await mf.getD1Database("PLATFORM_DB");
  const tenant = await platform
    .prepare("SELECT id, slug, slot FROM tenants WHERE slug = ?")
    .bind(peer.slug)
    .first();
  const db = await mf.getD1Database(`TENANT_DB_${pad(tenant.slot, 2)}`);
  const have = await db
    .prepare("SELECT (SELECT COUNT(*) FROM family_cards) AS kk, (SELECT COUNT(*) FROM family_members) AS n")
    .first();
  if (have.kk < peer.families || have.n < peer.persons) {
    const { units, cards, members } = peerRows(peer);
    const statements = [
      ...inserts(
        "units",
        units.map((u) => ({ ...u, updated_at: "2026-01-01T00:00:00.000Z" })),
      ),
      ...inserts("family_cards", cards),
      ...inserts("family_members", members),
    ];
    await db.batch(statements.map((s) => db.prepare(s)));
    // Fresh statistics, as a database that has lived with this data would have.
    await db.prepare("ANALYZE").run();
  }
  const count = await db
    .prepare("SELECT (SELECT COUNT(*) FROM family_cards) AS kk, (SELECT COUNT(*) FROM family_members) AS n")
    .first();
  return { tenant, families: count.kk, persons: count.n };
}
