// Demo letter requests per RT, one or two for each demo resident, each for the resident themself (the
// person on the family card their account is linked to, whose registry name is their account's), each
// with its history as the routes write it: a domicile letter just submitted (warga2), an SKCK cover
// letter staff are working on (warga1), and for warga3 a loss report sent back for correction with the
// secretary's note and a finished "belum menikah" letter to download. The finished one carries a number
// outside the year's sequence (next-number skips numbers in use), a fixed verification code and no
// stored PDF: the PDF route renders it on first download, as for any letter finished before its
// letterhead was kept.

// Every demo community's letter settings (issue 29): the administrative chain a kelurahan desk expects on
// the letterhead, and the heads who sign. A row from an earlier seed keeps what an admin set and gains
// what it lacked (COALESCE), so the first letter a newcomer finishes carries no empty part.
const SETTINGS = {
  rt01: {
    rt: "1",
    rw: "5",
    headName: "Bambang Sutrisno",
    address: "Sekretariat RT 01: Jl. Sukamaju Raya Blok A No. 16, Cibinong 16914",
  },
  rt02: {
    rt: "2",
    rw: "5",
    headName: "Sugeng Riyanto",
    address: "Sekretariat RT 02: Jl. Sukamaju Raya Blok B No. 16, Cibinong 16914",
  },
  rw: {
    rt: null,
    rw: "5",
    headName: "Hendra Gunawan",
    address: "Balai Warga RW 05: Jl. Sukamaju Raya No. 1, Cibinong 16914",
  },
};
const REGION = {
  kelurahan: "Sukamaju",
  kecamatan: "Cibinong",
  kota: "Kabupaten Bogor",
  provinsi: "Jawa Barat",
};

function settingsSql(q, now, key) {
  const s = { ...SETTINGS[key], ...REGION };
  const cols = ["rt", "rw", "kelurahan", "kecamatan", "kota", "provinsi", "address", "headName"];
  const column = (c) => c.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`);
  return [
    `INSERT OR IGNORE INTO letter_settings (id, ${cols.map(column).join(", ")}, village_kind, updated_at) VALUES (1, ${cols.map((c) => q(s[c])).join(", ")}, 'kelurahan', ${q(now)});`,
    `UPDATE letter_settings SET ${cols.map((c) => `${column(c)} = COALESCE(${column(c)}, ${q(s[c])})`).join(", ")} WHERE id = 1;`,
    // RT 01's admin turned the RW's acknowledgement on (off by default, issue 44 P6): its finished
    // letters wait in RW 05's queue, RT 02's do not.
    ...(key === "rt01"
      ? ["UPDATE letter_settings SET rw_acknowledgement = COALESCE(rw_acknowledgement, 1) WHERE id = 1;"]
      : []),
  ].join("\n");
}

const HOUR = 3_600_000;
const DAY = 86_400_000;

export function tenantSql({ now: nowIso, q, rt, resident, tenant }) {
  if (!rt) {
    return settingsSql(q, nowIso, "rw");
  }
  const now = new Date(nowIso).getTime();
  const at = (ms) => new Date(now - ms).toISOString();
  const staff = `seed-user-sekretaris-${rt}`;

  const letters = [
    {
      key: "domisili",
      by: resident(2),
      jenis: "domisili",
      keperluan: "Persyaratan pembukaan rekening bank",
      fields: {
        sejak: "2019-03-01",
        alamatSebelumnya: "Jl. Melati No. 12, Kel. Cempaka Putih, Jakarta Pusat",
      },
      created: 4 * HOUR,
      events: [],
    },
    {
      key: "skck",
      by: resident(1),
      jenis: "pengantar_skck",
      keperluan: "Melamar pekerjaan",
      fields: { alasan: "Persyaratan melamar kerja di perusahaan swasta" },
      created: 2 * DAY,
      events: [{ status: "diproses", note: null, ago: DAY }],
    },
    {
      key: "kehilangan",
      by: resident(3),
      jenis: "kehilangan",
      keperluan: "Laporan kehilangan ke Polsek",
      fields: {
        barang: "Dompet berisi KTP-el dan SIM C",
        keterangan: "Dompet kulit cokelat",
        tanggalHilang: "2026-01-10",
        tempatHilang: "Pasar Cibinong",
      },
      created: 3 * DAY,
      events: [
        {
          status: "perlu_perbaikan",
          note: "Mohon tuliskan nomor KTP-el dan nomor SIM yang hilang di keterangan.",
          ago: 2 * DAY,
        },
      ],
    },
    {
      key: "belum-menikah",
      by: resident(3),
      jenis: "belum_menikah",
      keperluan: "Persyaratan melamar kerja",
      fields: {},
      created: 6 * DAY,
      events: [
        { status: "diproses", note: null, ago: 5 * DAY },
        { status: "selesai", note: null, ago: 4 * DAY },
      ],
      // Finished: its number (outside the year's sequence) and its verification code (which names the tenant).
      finished: { nomor: `CONTOH-01/SKBM/${rt.toUpperCase()}`, code: `${tenant.slug}.seedskbm${rt}` },
    },
  ];

  const lines = [settingsSql(q, nowIso, rt)];
  for (const l of letters) {
    const id = `seed-surat-${rt}-${l.key}`;
    const last = l.events.at(-1);
    const done = l.finished && last ? at(last.ago) : null;
    lines.push(`INSERT OR IGNORE INTO letters (id, resident_id, unit_id, jenis, on_behalf_of, subject_name, keperluan, fields, status, nomor_surat, tanggal_surat, note, verification_code, revision, pdf_version, decided_by, finished_at, created_at, updated_at)
VALUES (${q(id)}, ${q(l.by.id)}, ${q(l.by.unit.id)}, ${q(l.jenis)}, ${q(l.by.personId)}, ${q(l.by.name)}, ${q(l.keperluan)}, ${q(JSON.stringify(l.fields))}, ${q(last?.status ?? "diajukan")}, ${q(l.finished?.nomor)}, ${q(done?.slice(0, 10))}, ${q(last?.note)}, ${q(l.finished?.code)}, ${l.events.length + 1}, 1, ${q(last ? staff : null)}, ${q(done)}, ${q(at(l.created))}, ${q(at(last?.ago ?? l.created))});`);
    lines.push(`INSERT OR IGNORE INTO letter_events (id, letter_id, status, note, actor_id, created_at)
VALUES (${q(`${id}-e0`)}, ${q(id)}, 'diajukan', NULL, ${q(l.by.id)}, ${q(at(l.created))});`);
    l.events.forEach((e, i) => {
      lines.push(`INSERT OR IGNORE INTO letter_events (id, letter_id, status, note, actor_id, created_at)
VALUES (${q(`${id}-e${i + 1}`)}, ${q(id)}, ${q(e.status)}, ${q(e.note)}, ${q(staff)}, ${q(at(e.ago))});`);
    });
  }
  return lines.join("\n");
}
