// The RW head's summary over 20 linked RTs (issue 13), on workerd served directly (scripts/lib/workerd.mjs,
// ADR 0015): p50/p99 of `GET /api/tenant-hierarchy/summary` beside the bare routes on the same runtime
// in the same run, and the workerd process's CPU per request from /proc (local D1 runs in that process,
// so the figure includes the 20 databases' work).
//
// The bench brings its own state (a temporary directory, removed afterwards) with 21 tenant slots, more
// than wrangler.toml declares: an RW and 20 RTs linked to it, each RT seeded straight through its D1
// binding with a registry of a few hundred persons, letters, complaints and a year of dues bills with
// arrears. Nothing of `npm run dev`'s state is touched.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SignJWT } from "jose";
import { TEST_SECRETS } from "../lib/dev-server.mjs";
import { load as loadRoute } from "../lib/load.mjs";
import { readConfig } from "../lib/wrangler.mjs";
import { migrate, refreshDuesBalances, runAll } from "./d1.mjs";
import { startBenchWorkerd } from "./server.mjs";

export const CHILDREN = Number(process.env.BENCH_CHILDREN ?? 20);
// Fewer connections and longer windows than the api suite: one summary is 20 databases' work, and at 8
// connections on a shared 2-core machine a request can outlast a 5 s window.
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

const pad = (n, width) => String(n).padStart(width, "0");
const q = (v) =>
  v === null || v === undefined
    ? "NULL"
    : typeof v === "number"
      ? String(v)
      : `'${String(v).replace(/'/g, "''")}'`;
const RW = { id: "bench-rw-07", slug: "bench-rw-07-mekarsari", name: "RW 07 Mekarsari" };
const ADMIN = "bench-rw-07-admin";
/** The sign-in (session family) the bench's tokens name. */
const SID = "bench-rw-07";
const NOW = new Date().toISOString();

const MEN = [
  "Agus",
  "Bambang",
  "Dedi",
  "Eko",
  "Fajar",
  "Hendra",
  "Joko",
  "Rudi",
  "Slamet",
  "Yusuf",
  "Asep",
  "Wahyu",
];
const WOMEN = [
  "Ani",
  "Dewi",
  "Fitri",
  "Lestari",
  "Nur",
  "Rina",
  "Siti",
  "Sri",
  "Wati",
  "Yuni",
  "Euis",
  "Ratna",
];
const SURNAMES = ["Hidayat", "Kurniawan", "Lubis", "Nasution", "Pratama", "Santoso", "Saputra", "Setiawan"];
const JENIS = ["domisili", "pengantar_skck", "keterangan_usaha", "keterangan_tidak_mampu"];
const LETTER_STATUS = [
  "selesai",
  "selesai",
  "diajukan",
  "selesai",
  "diproses",
  "ditolak",
  "selesai",
  "perlu_perbaikan",
];
const COMPLAINT_STATUS = ["selesai", "baru", "diproses", "selesai", "selesai", "ditolak"];
const COMPLAINTS = [
  ["Lampu jalan mati", "Lampu jalan di depan pos ronda mati sejak tiga hari", "fasilitas"],
  ["Saluran air tersumbat", "Got di gang belakang meluap saat hujan", "kebersihan"],
  ["Sampah belum diangkut", "Sampah di TPS belum diangkut sejak Senin", "kebersihan"],
  ["Jalan berlubang", "Lubang besar di jalan masuk blok C membahayakan pengendara motor", "fasilitas"],
];

/** The last 12 dues periods, oldest first, in Jakarta's calendar (the dues module bills by month). */
function periods() {
  const jakarta = new Date(Date.now() + 7 * 3600_000);
  const out = [];
  for (let back = 11; back >= 0; back--) {
    const d = new Date(Date.UTC(jakarta.getUTCFullYear(), jakarta.getUTCMonth() - back, 1));
    out.push(`${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1, 2)}`);
  }
  return out;
}

function inserts(table, rows, chunk = 200) {
  if (rows.length === 0) {
    return [];
  }
  const columns = Object.keys(rows[0]);
  const statements = [];
  for (let i = 0; i < rows.length; i += chunk) {
    statements.push(
      `INSERT OR IGNORE INTO ${table} (${columns.join(", ")}) VALUES ${rows
        .slice(i, i + chunk)
        .map((r) => `(${columns.map((c) => q(r[c])).join(", ")})`)
        .join(", ")}`,
    );
  }
  return statements;
}

/** One RT's data: ~120–150 houses and cards, ~3.4 persons a card, letters, complaints, a year of dues. */
function rtRows(r) {
  const houses = 120 + (r % 5) * 7;
  const units = [];
  const cards = [];
  const members = [];
  const letters = [];
  const complaints = [];
  const bills = [];
  let p = 0;
  for (let h = 0; h < houses; h++) {
    const unit = `u-${pad(h, 4)}`;
    units.push({
      id: unit,
      block: String.fromCharCode(65 + (h % 6)),
      number: String(Math.floor(h / 6) + 1),
      latitude: -6.9 - r * 1e-3 - h * 1e-5,
      longitude: 107.6 + (h % 40) * 1e-4,
      occupancy: h % 9 === 0 ? "penyewa" : "pemilik",
      updated_at: NOW,
    });
    const card = `kk-${pad(h, 4)}`;
    const surname = SURNAMES[(h + r) % SURNAMES.length];
    const head = `${MEN[h % MEN.length]} ${surname}`;
    cards.push({
      id: card,
      kk_number: `3273${pad(r, 2)}${pad(h, 10)}`,
      unit_id: unit,
      head_name: head,
      head_nik: `3273${pad(r, 2)}0101${pad(70 + (h % 25), 2)}${pad(p, 4)}`,
      status: h % 31 === 30 ? "pindah" : "aktif",
      updated_at: NOW,
    });
    const size = 1 + ((h * 7 + r) % 5); // 1..5 persons
    for (let m = 0; m < size; m++, p++) {
      const sex = m === 1 ? "P" : m === 0 ? "L" : p % 2 ? "P" : "L";
      members.push({
        id: `km-${pad(p, 5)}`,
        family_card_id: card,
        name: m === 0 ? head : `${(sex === "L" ? MEN : WOMEN)[(p + m) % 12]} ${surname}`,
        nik: `3273${pad(r, 2)}${pad((p % 28) + 1 + (sex === "P" ? 40 : 0), 2)}${pad((p % 12) + 1, 2)}${pad(m < 2 ? 75 + (h % 20) : 5 + (p % 15), 2)}${pad(p, 4)}`,
        relationship: m === 0 ? "kepala_keluarga" : m === 1 ? "istri" : "anak",
        sex,
        birth_date: `${m < 2 ? 1975 + (h % 20) : 2005 + (p % 15)}-${pad((p % 12) + 1, 2)}-${pad((p % 28) + 1, 2)}`,
        religion: p % 11 === 0 ? "kristen" : "islam",
        residence_status: h % 9 === 0 ? "kontrak" : "tetap",
        living_status: p % 53 === 52 ? "meninggal" : "hidup",
        updated_at: NOW,
      });
    }
  }
  for (let i = 0; i < 50 + r; i++) {
    const h = (i * 13) % houses;
    letters.push({
      id: `srt-${pad(i, 4)}`,
      resident_id: `warga-${pad(h, 4)}`,
      unit_id: `u-${pad(h, 4)}`,
      jenis: JENIS[i % JENIS.length],
      on_behalf_of: "self",
      subject_name: cards[h].head_name,
      keperluan: "Persyaratan administrasi kelurahan",
      fields: "{}",
      status: LETTER_STATUS[(i + r) % LETTER_STATUS.length],
      updated_at: NOW,
    });
  }
  for (let i = 0; i < 30 + (r % 7) * 3; i++) {
    const h = (i * 17) % houses;
    const [title, description, category] = COMPLAINTS[i % COMPLAINTS.length];
    complaints.push({
      id: `adu-${pad(i, 4)}`,
      resident_id: `warga-${pad(h, 4)}`,
      unit_id: `u-${pad(h, 4)}`,
      title,
      description,
      category,
      status: COMPLAINT_STATUS[(i + r) % COMPLAINT_STATUS.length],
      updated_at: NOW,
    });
  }
  const months = periods();
  for (const [m, period] of months.entries()) {
    const recent = months.length - m; // 1 = this month
    for (let h = 0; h < houses; h++) {
      const draw = (h * 31 + m * 7 + r * 3) % 100;
      // Arrears grow towards the present: a few old debts, a third of this month still unpaid.
      const status =
        recent === 1
          ? draw < 35
            ? "belum"
            : draw < 45
              ? "sebagian"
              : "lunas"
          : draw < 12 / recent
            ? "belum"
            : "lunas";
      const amount = 50_000 + (h % 3) * 25_000;
      bills.push({
        id: `bill-${period}-${pad(h, 4)}`,
        type_id: "iuran-bulanan",
        type_name: "Iuran Kebersihan & Keamanan",
        period,
        basis: "unit",
        target_id: `u-${pad(h, 4)}`,
        unit_id: `u-${pad(h, 4)}`,
        amount,
        paid_amount: status === "lunas" ? amount : status === "sebagian" ? 25_000 : 0,
        status,
        updated_at: NOW,
      });
    }
  }
  return { units, cards, members, letters, complaints, bills };
}

/** The RW and its CHILDREN RTs, seeded through the bindings of a server `startRwServer` started. */
export async function seedRw(mf) {
  const platform = await mf.getD1Database("PLATFORM_DB");
  await migrate(platform, "migrations/platform");
  const flags = JSON.stringify({ warga: true, surat: true, tamu: true, musyawarah: true, pasar: true });
  const tenants = [{ ...RW, type: "RW", parent_id: null, slot: 1, linked_at: null }];
  for (let r = 0; r < CHILDREN; r++) {
    tenants.push({
      id: `bench-rt-${pad(r + 1, 2)}`,
      slug: `bench-rt-${pad(r + 1, 2)}-mekarsari`,
      name: `RT ${pad(r + 1, 2)} / RW 07 Mekarsari`,
      type: "RT",
      parent_id: RW.id,
      slot: r + 2,
      linked_at: NOW,
    });
  }
  await platform.batch(
    [
      ...inserts(
        "tenants",
        tenants.map((t) => ({ ...t, flags, status: "active", updated_at: NOW })),
      ),
      `INSERT INTO users (id, email, name, status, updated_at) VALUES ('${ADMIN}', 'ketua.rw07@bench.warga.test', 'Ketua RW 07', 'active', '${NOW}')`,
      `INSERT INTO memberships (id, user_id, tenant_id, roles) VALUES ('m-${ADMIN}', '${ADMIN}', '${RW.id}', '["admin"]')`,
      // The same person as RT 01's secretary, for one RT's own dashboard beside the summary.
      `INSERT INTO memberships (id, user_id, tenant_id, roles) VALUES ('m-${ADMIN}-rt01', '${ADMIN}', 'bench-rt-01', '["sekretaris"]')`,
      // The sign-in behind the bench's tokens: every tenant route asks whether it is live (issue 27).
      `INSERT INTO sessions (id, user_id, tenant_id, family_id, refresh_hash, expires_at) VALUES ('s-${ADMIN}', '${ADMIN}', '${RW.id}', '${SID}', 'bench-unused-${SID}', '2099-01-01T00:00:00.000Z')`,
    ].map((s) => platform.prepare(s)),
  );
  const totals = { persons: 0, letters: 0, complaints: 0, bills: 0 };
  for (let slot = 1; slot <= CHILDREN + 1; slot++) {
    const db = await mf.getD1Database(`TENANT_DB_${pad(slot, 2)}`);
    await migrate(db, "migrations/tenant");
    if (slot === 1) {
      continue;
    }
    const rows = rtRows(slot - 2);
    // In chunks, a chunk whose socket the proxy closed sent again (runAll; the inserts ignore repeats).
    await runAll(db, [
      ...inserts("units", rows.units),
      ...inserts("family_cards", rows.cards),
      ...inserts("family_members", rows.members),
      ...inserts("letters", rows.letters),
      ...inserts("complaints", rows.complaints),
      ...inserts("dues_bills", rows.bills),
    ]);
    await refreshDuesBalances(db, "bill-%");
    await db.prepare("ANALYZE").run();
    totals.persons += rows.members.length;
    totals.letters += rows.letters.length;
    totals.complaints += rows.complaints.length;
    totals.bills += rows.bills.length;
  }
  return totals;
}

/** A token of the RW's head: the RW's admin, or (`tenant`, `role`) the first RT's secretary. */
export function rwToken(tenant = RW.slug, role = "admin") {
  const vars = readConfig("wrangler.toml").vars;
  return new SignJWT({ tenant, roles: [role], resident: false, sid: SID })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(ADMIN)
    .setIssuer(vars.JWT_ISSUER)
    .setAudience(vars.JWT_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime("15m")
    .sign(new TextEncoder().encode(TEST_SECRETS.JWT_SECRET));
}

const load = (url, headers = {}) =>
  loadRoute({ url, headers, connections: CONNECTIONS, duration: DURATION_S });

/**
 * The bench entry on workerd over a temporary state with CHILDREN + 1 tenant slots (more than
 * wrangler.toml declares); `stop()` also removes the state.
 */
export async function startRwServer() {
  const persistTo = mkdtempSync(join(tmpdir(), "warga-bench-hierarchy-"));
  const d1Databases = Object.fromEntries(
    Array.from({ length: CHILDREN + 1 }, (_, i) => [
      `TENANT_DB_${pad(i + 1, 2)}`,
      { id: `bench-hierarchy-${pad(i + 1, 2)}` },
    ]),
  );
  d1Databases.PLATFORM_DB = { id: "bench-hierarchy-platform" };
  const server = await startBenchWorkerd({ persistTo, d1Databases, vars: { LOG_LEVEL: "warn" } });
  const stop = server.stop;
  server.stop = async () => {
    await stop();
    rmSync(persistTo, { recursive: true, force: true });
  };
  return server;
}

export async function run() {
  const server = await startRwServer();
  try {
    const seeded = await seedRw(server.mf);
    const auth = { Authorization: `Bearer ${await rwToken()}` };
    const summaryUrl = `${server.url}/api/tenant-hierarchy/summary`;
    const first = await fetch(summaryUrl, { headers: auth });
    const body = await first.json();
    if (first.status !== 200 || body.children?.length !== CHILDREN || body.children.some((c) => c.error)) {
      throw new Error(`summary answered ${first.status}: ${JSON.stringify(body).slice(0, 500)}`);
    }
    const rtAuth = { Authorization: `Bearer ${await rwToken(`bench-rt-01-mekarsari`, "sekretaris")}` };
    const targets = {
      bare: { url: `${server.url}/__bare` },
      "bare D1": { url: `${server.url}/__bare-d1` },
      "one RT's dashboard": { url: `${server.url}/api/statistik/operasional`, headers: rtAuth },
      [`summary (${CHILDREN} RTs)`]: { url: summaryUrl, headers: auth },
    };
    for (const [name, t] of Object.entries(targets)) {
      const res = await fetch(t.url, { headers: t.headers });
      if (res.status !== 200) {
        throw new Error(`${name} answered ${res.status}: ${await res.text()}`);
      }
      await load(t.url, t.headers);
    }
    const samples = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, t] of Object.entries(targets)) {
        const cpu0 = server.cpu();
        const r = await load(t.url, t.headers);
        const cpu = server.cpu() - cpu0;
        if (r.non2xx > 0 || r.errors > 0 || r.total === 0) {
          throw new Error(`${name}: ${r.total} answers, ${r.non2xx} non-2xx, ${r.errors} errors`);
        }
        samples[name].push({
          p50: r.p50,
          p99: r.p99,
          rps: r.rps,
          cpu,
          n: r.total,
        });
      }
    }
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const stats = Object.fromEntries(
      Object.entries(samples).map(([k, v]) => [
        k,
        {
          p50: mean(v.map((s) => s.p50)),
          p99: mean(v.map((s) => s.p99)),
          rps: mean(v.map((s) => s.rps)),
          cpuMs: (v.reduce((a, s) => a + s.cpu, 0) * 1000) / v.reduce((a, s) => a + s.n, 0),
        },
      ]),
    );
    const { total } = body;
    console.log(
      `\nRW summary on workerd ${server.runtime}: ${CHILDREN} linked RTs, ${seeded.persons} persons, ${seeded.letters} letters, ` +
        `${seeded.complaints} complaints, ${seeded.bills} dues bills (${CONNECTIONS} connections, ${ROUNDS}×${DURATION_S}s each, interleaved)`,
    );
    console.log(
      `answer: ${total.residents} residents, arrears Rp ${total.duesArrears.amount.toLocaleString("id-ID")} over ${total.duesArrears.units} units, ` +
        `${total.lettersAwaitingProcessing} letters awaiting processing, ${total.complaintsOpen} complaints open`,
    );
    console.log(
      "route                       p50 ms   p99 ms    req/s   CPU ms   p50/bare  p50/bare D1  CPU/bare",
    );
    for (const [name, s] of Object.entries(stats)) {
      console.log(
        `${name.padEnd(26)} ${s.p50.toFixed(1).padStart(7)} ${s.p99.toFixed(1).padStart(8)} ${s.rps.toFixed(0).padStart(8)} ${s.cpuMs.toFixed(2).padStart(8)} ${(stats.bare.p50 > 0 ? (s.p50 / stats.bare.p50).toFixed(2) : "-").padStart(10)} ${(s.p50 / stats["bare D1"].p50).toFixed(2).padStart(12)} ${(s.cpuMs / stats.bare.cpuMs).toFixed(1).padStart(9)}`,
      );
    }
    console.log(
      "CPU ms: user+system time of the workerd process (the Worker and the 21 local D1 databases) per request.",
    );
    return { stats, seeded };
  } finally {
    await server.stop();
  }
}
