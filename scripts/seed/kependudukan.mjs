/**
 * Demo registry (issue 13): one family card per resident's house plus a dozen more households on
 * the same street, then the officers' own houses (issue 27: the ketua, sekretaris and bendahara live in
 * the RT), with wives, children, vehicles, coordinates for the map, a few life events, one pending
 * resident correction and, in RT 01, one pending request for a house (issue 44). Each demo account with a house is one person on its card (`account.home`,
 * `account.personId`: seed-dev.mjs links the membership to it). Fixed `seed-…` ids, INSERT OR IGNORE:
 * safe to run on every start.
 */

const FIRST_MEN = [
  "Agus",
  "Budi",
  "Dedi",
  "Eko",
  "Hendra",
  "Joko",
  "Rudi",
  "Slamet",
  "Teguh",
  "Wahyu",
  "Yusuf",
  "Asep",
];
const FIRST_WOMEN = [
  "Siti",
  "Dewi",
  "Sri",
  "Rina",
  "Wulan",
  "Ani",
  "Nur",
  "Lestari",
  "Yanti",
  "Ratna",
  "Euis",
  "Tuti",
];
const FAMILY = [
  "Santoso",
  "Wijaya",
  "Hidayat",
  "Saputra",
  "Kurniawan",
  "Setiawan",
  "Nugroho",
  "Permana",
  "Gunawan",
  "Suryadi",
  "Rahman",
  "Firmansyah",
];
const JOBS = [
  "Karyawan Swasta",
  "Wiraswasta",
  "PNS",
  "Guru",
  "Pedagang",
  "Pengemudi Ojek Daring",
  "Perawat",
  "Buruh Pabrik",
];
const CARS = [
  ["mobil", "Toyota", "Avanza", "Silver"],
  ["motor", "Honda", "Beat", "Hitam"],
  ["motor", "Yamaha", "NMAX", "Putih"],
  ["mobil", "Daihatsu", "Xenia", "Abu-abu"],
  ["motor", "Honda", "Vario", "Merah"],
];

/** A NIK whose digits 7–12 are the birth date (day + 40 for a woman), as Dukcapil issues them. */
function nik(region, birth, sex, serial) {
  const [y, m, d] = birth.split("-");
  const day = String(Number(d) + (sex === "P" ? 40 : 0)).padStart(2, "0");
  return `${region}${day}${m}${y.slice(2)}${String(serial).padStart(4, "0")}`;
}

/**
 * RT 01's family that moved out on 30 September (issue 45): the last of the street's twelve other
 * households, whose card key follows the residents' houses. Its head's registry person and name,
 * for the demo account still in its grace period (members.mjs) and its debt (keuangan.mjs).
 */
export function movedOutHead(accounts) {
  const residents = accounts.filter((a) => a.tenant === "seed-tenant-rt01" && a.home && a.roles.length === 0);
  const key = residents.length + 12;
  return {
    cardId: `seed-kk-rt01-${key}`,
    personId: `seed-km-rt01-${key}-1`,
    name: `${FIRST_MEN[11]} ${FAMILY[11]}`,
  };
}

export function tenantSql({ accounts, tenant, now, q, rt }) {
  if (!rt) {
    return "";
  }
  const region = rt === "rt01" ? "327301" : "327302";
  const homes = accounts.filter((a) => a.tenant === tenant.id && a.home);
  const house = (a) => ({ ...a.home, unit: a.unit });
  // Residents' houses, the street's other households, then the officers': ids, numbers and NIK serials
  // of the first two stay those of every earlier seed, so a database seeded before gains rows only.
  const houses = homes.filter((a) => a.roles.length === 0).map(house);
  const block = houses[0]?.unit.block ?? "A";
  const firstExtra = houses.length;
  for (let i = 0; i < 12; i++) {
    const number = String(houses.length + i + 1);
    houses.push({
      key: String(houses.length + 1),
      unit: { id: `seed-unit-${rt}-x${i + 1}`, block: i < 6 ? block : `${block}2`, number },
      head: `${FIRST_MEN[i]} ${FAMILY[i]}`,
      extra: true,
    });
  }
  const lastExtra = firstExtra + 11;
  houses.push(...homes.filter((a) => a.roles.length > 0).map(house));
  const lines = [];
  let serial = 1;
  houses.forEach((house, i) => {
    const lat = (rt === "rt01" ? -6.9147 : -6.9212) - i * 0.00021;
    const lng = 107.6098 + (i % 6) * 0.00034;
    // Issue 45: in RT 01 the house the moved-out family left stands empty (not billed per-unit dues).
    const occupancy =
      rt === "rt01" && house.extra && i === lastExtra ? "kosong" : i % 5 === 4 ? "penyewa" : "pemilik";
    lines.push(
      `INSERT OR IGNORE INTO units (id, block, number, latitude, longitude, occupancy, updated_at) VALUES (${q(house.unit.id)}, ${q(house.unit.block)}, ${q(house.unit.number)}, ${lat.toFixed(6)}, ${lng.toFixed(6)}, ${q(occupancy)}, ${q(now)});`,
      `UPDATE units SET latitude = ${lat.toFixed(6)}, longitude = ${lng.toFixed(6)}, occupancy = COALESCE(occupancy, ${q(occupancy)}) WHERE id = ${q(house.unit.id)} AND latitude IS NULL;`,
    );
    const cardId = `seed-kk-${rt}-${house.key}`;
    const person = (n) => `seed-km-${rt}-${house.key}-${n}`;
    const family = house.head.split(" ").slice(-1)[0];
    const headSex = house.sex ?? "L";
    const headBirth = `19${70 + (i % 20)}-${String((i % 12) + 1).padStart(2, "0")}-${String((i % 27) + 1).padStart(2, "0")}`;
    const wifeBirth = `19${73 + (i % 20)}-${String(((i + 5) % 12) + 1).padStart(2, "0")}-${String(((i + 9) % 27) + 1).padStart(2, "0")}`;
    const kidBirth = `20${String(5 + (i % 15)).padStart(2, "0")}-${String(((i + 2) % 12) + 1).padStart(2, "0")}-${String(((i + 3) % 27) + 1).padStart(2, "0")}`;
    const headNik = nik(region, headBirth, headSex, serial++);
    const kk = `${region}${String(10100 + i).padStart(6, "0")}${String(i + 1).padStart(4, "0")}`;
    const moved = house.extra && i === lastExtra;
    lines.push(
      `INSERT OR IGNORE INTO family_cards (id, kk_number, unit_id, head_name, head_nik, head_whatsapp, status, status_date, notes, updated_at) VALUES (${q(cardId)}, ${q(kk)}, ${q(house.unit.id)}, ${q(house.head)}, ${q(headNik)}, ${q(`62812${String(7000000 + i).padStart(7, "0")}`)}, ${q(moved ? "pindah" : "aktif")}, ${q(moved ? "2026-09-30" : null)}, ${q(i === 0 ? "Ketua kelompok ronda blok" : null)}, ${q(now)});`,
    );
    // A head without a wife (`spouse: null`) is a widow or widower; the serial is spent all the same.
    const wifeSerial = serial++;
    const people = [
      [
        person(1),
        house.head,
        headNik,
        "kepala_keluarga",
        headSex,
        headBirth,
        "Bandung",
        JOBS[i % JOBS.length],
        house.spouse === null ? "cerai_mati" : "kawin",
        "d4_s1",
      ],
      ...(house.spouse === null
        ? []
        : [
            [
              person(2),
              house.spouse ?? `${FIRST_WOMEN[i % 12]} ${family}`,
              nik(region, wifeBirth, "P", wifeSerial),
              "istri",
              "P",
              wifeBirth,
              "Garut",
              i % 3 === 0 ? "Guru" : "Mengurus Rumah Tangga",
              "kawin",
              "sma",
            ],
          ]),
      [
        person(3),
        `${FIRST_MEN[(i + 4) % 12]} ${family}`,
        nik(region, kidBirth, "L", serial++),
        "anak",
        "L",
        kidBirth,
        "Bandung",
        "Pelajar",
        "belum_kawin",
        "smp",
      ],
    ];
    for (const [id, name, n, rel, sex, birth, place, job, marital, edu] of people) {
      lines.push(
        `INSERT OR IGNORE INTO family_members (id, family_card_id, name, nik, relationship, sex, birth_date, birth_place, religion, education, occupation, marital_status, citizenship, living_status, residence_status, updated_at) VALUES (${q(id)}, ${q(cardId)}, ${q(name)}, ${q(n)}, ${q(rel)}, ${q(sex)}, ${q(birth)}, ${q(place)}, ${q(i % 7 === 3 ? "kristen" : "islam")}, ${q(edu)}, ${q(job)}, ${q(marital)}, 'WNI', 'hidup', ${q(i % 5 === 4 ? "kontrak" : "tetap")}, ${q(now)});`,
      );
    }
    if (i % 2 === 0) {
      const [kind, brand, model, colour] = CARS[i % CARS.length];
      const plate = `D ${1000 + i * 37} ${rt === "rt01" ? "SKJ" : "SKM"}`;
      lines.push(
        `INSERT OR IGNORE INTO vehicles (id, family_card_id, plate, kind, brand, model, colour, updated_at) VALUES (${q(`seed-veh-${rt}-${i + 1}`)}, ${q(cardId)}, ${q(plate)}, ${q(kind)}, ${q(brand)}, ${q(model)}, ${q(colour)}, ${q(now)});`,
      );
    }
    if (rt === "rt01" && i === 1) {
      // Issue 49: the first house's car registered again here under another spelling (as the registry
      // allowed before plates were compared by key). The database's trigger flags it, so the
      // secretary's duplicate-plate report (Kendaraan ganda) has a pair to show in `npm run dev`.
      lines.push(
        `INSERT OR IGNORE INTO vehicles (id, family_card_id, plate, kind, brand, model, colour, updated_at) VALUES (${q(`seed-veh-${rt}-${i + 1}-ganda`)}, ${q(cardId)}, 'D1000SKJ', 'mobil', 'Toyota', 'Avanza', 'Silver', ${q(now)});`,
      );
    }
    if (moved) {
      lines.push(
        `INSERT OR IGNORE INTO mutations (id, kind, date, family_card_id, person_name, place, note) VALUES (${q(`seed-mut-${rt}-out`)}, 'pindah_keluar', '2026-09-30', ${q(cardId)}, ${q(house.head)}, 'Kab. Sumedang', 'Pindah tugas kerja');`,
      );
    }
  });
  lines.push(
    `INSERT OR IGNORE INTO mutations (id, kind, date, family_card_id, member_id, person_name, place) VALUES (${q(`seed-mut-${rt}-born`)}, 'lahir', '2026-10-12', ${q(`seed-kk-${rt}-2`)}, ${q(`seed-km-${rt}-2-3`)}, ${q(`${FIRST_MEN[5]} ${houses[1]?.head.split(" ").slice(-1)[0]}`)}, 'RSUD Kota Bandung');`,
    `INSERT OR IGNORE INTO corrections (id, user_id, unit_id, member_id, field, value, note) VALUES (${q(`seed-corr-${rt}`)}, ${q(`seed-user-warga1-${rt}`)}, ${q(houses[0]?.unit.id)}, ${q(`seed-km-${rt}-1-2`)}, 'occupation', 'Wiraswasta', 'Istri saya sudah membuka warung sejak Agustus');`,
  );
  if (rt === "rt01") {
    // Issue 44: a house is granted, not claimed. warga2 asks to be registered at a house the registry does
    // not hold yet (they bought the empty lot's new house); the RT 01 secretary sees it waiting.
    lines.push(
      `INSERT OR IGNORE INTO corrections (id, user_id, unit_id, field, value, note) VALUES ('seed-corr-rumah-rt01', 'seed-user-warga2-rt01', ${q(houses[1]?.unit.id)}, 'rumah', '{"block":"D","number":"12"}', 'Kami pindah ke rumah baru di Blok D sejak November');`,
    );
  }
  return lines.join("\n");
}
