// Demo letter requests per RT: a domicile letter just submitted and an SKCK cover letter staff are working
// on, each for the resident themself (the person on the family card their account is linked to, whose
// registry name is their account's), each with its history as the routes write it. Neither is finished: a finished letter needs a number
// from the tenant's sequence, a verification code and a rendered PDF, which only the workflow produces.

const HOUR = 3_600_000;
const DAY = 86_400_000;

export function tenantSql({ now: nowIso, q, rt, resident }) {
  if (!rt) {
    return "";
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
  ];

  const lines = [];
  for (const l of letters) {
    const id = `seed-surat-${rt}-${l.key}`;
    const last = l.events.at(-1);
    lines.push(`INSERT OR IGNORE INTO letters (id, resident_id, unit_id, jenis, on_behalf_of, subject_name, keperluan, fields, status, nomor_surat, tanggal_surat, note, verification_code, revision, pdf_version, decided_by, finished_at, created_at, updated_at)
VALUES (${q(id)}, ${q(l.by.id)}, ${q(l.by.unit.id)}, ${q(l.jenis)}, ${q(l.by.personId)}, ${q(l.by.name)}, ${q(l.keperluan)}, ${q(JSON.stringify(l.fields))}, ${q(last?.status ?? "diajukan")}, NULL, NULL, NULL, NULL, ${l.events.length + 1}, 1, ${q(last ? staff : null)}, NULL, ${q(at(l.created))}, ${q(at(last?.ago ?? l.created))});`);
    lines.push(`INSERT OR IGNORE INTO letter_events (id, letter_id, status, note, actor_id, created_at)
VALUES (${q(`${id}-e0`)}, ${q(id)}, 'diajukan', NULL, ${q(l.by.id)}, ${q(at(l.created))});`);
    l.events.forEach((e, i) => {
      lines.push(`INSERT OR IGNORE INTO letter_events (id, letter_id, status, note, actor_id, created_at)
VALUES (${q(`${id}-e${i + 1}`)}, ${q(id)}, ${q(e.status)}, ${q(e.note)}, ${q(staff)}, ${q(at(e.ago))});`);
    });
  }
  return lines.join("\n");
}
