import { expect } from "vitest";
import { callJson, createTenant, type Member, type TestTenant } from "../../helpers/harness";

export interface LetterBody {
  id: string;
  status: string;
  jenis: string;
  subjectName: string;
  onBehalfOf: string;
  nomorSurat: string | null;
  tanggalSurat: string | null;
  note: string | null;
  verificationCode: string | null;
  verificationUrl: string | null;
  pdfAvailable: boolean;
  pdfVersion: number;
  fields: Record<string, unknown>;
  history?: { status: string; note: string | null; byStaff: boolean }[];
}

let seq = 0;
/**
 * A valid NIK (region 320101, born on `ddmmyy`: 1 January 1980, a man, unless told; day + 40 for a
 * woman) or KK number, unique within the test file.
 */
export const nik = (ddmmyy = "010180") => `320101${ddmmyy}${String(++seq).padStart(4, "0")}`;

/** Valid additional fields for every type (member ids filled in per household where needed). */
export function sampleFields(jenis: string, memberId = "x"): Record<string, unknown> {
  const samples: Record<string, Record<string, unknown>> = {
    pengantar_ktp_kk: { dokumen: "ktp_baru", alasan: "Baru berusia 17 tahun" },
    domisili: { sejak: "2020-01-15", alamatSebelumnya: "Jl. Melati 3, Bandung" },
    sktm: { penghasilanBulanan: 1_500_000, jumlahTanggungan: 3, ditujukanKepada: "rumah_sakit" },
    tidak_mampu: {
      namaSiswa: "Rina",
      sekolah: "SMPN 2",
      kelas: "8B",
      penghasilanAyah: 1_200_000,
      penghasilanIbu: 0,
    },
    usaha: {
      namaUsaha: "Warung Bu Sri",
      jenisUsaha: "Warung makan",
      alamatUsaha: "Blok A 1",
      sejak: "2019-06-01",
    },
    kematian: {
      almarhumAnggotaId: memberId,
      tanggalMeninggal: "2026-11-01",
      tempatMeninggal: "Rumah",
      sebab: "Sakit",
      namaPelapor: "Budi",
      hubunganPelapor: "Anak",
    },
    pindah: {
      alamatTujuan: "Jl. Mawar 10",
      rtTujuan: "4",
      rwTujuan: "2",
      kelurahanTujuan: "Sukasari",
      kecamatanTujuan: "Cibeunying",
      kotaTujuan: "Bandung",
      provinsiTujuan: "Jawa Barat",
      kodePosTujuan: "40123",
      alasan: "Pekerjaan",
      anggotaPindah: [memberId],
      tanggalPindah: "2026-12-01",
    },
    kelahiran: {
      namaAnak: "Putri",
      jenisKelamin: "P",
      tanggalLahir: "2026-10-10",
      tempatLahir: "Bandung",
      namaAyah: "Budi",
      namaIbu: "Sari",
    },
    belum_menikah: {},
    pengantar_skck: { alasan: "Melamar pekerjaan" },
    izin_keramaian: {
      jenisAcara: "Pernikahan",
      waktuAcara: "2026-12-12T09:00",
      tempat: "Rumah",
      perkiraanTamu: 200,
      hiburan: "Organ tunggal",
    },
    kehilangan: {
      barang: "Dompet",
      keterangan: "Berisi KTP",
      tanggalHilang: "2026-11-10",
      tempatHilang: "Pasar",
    },
  };
  const fields = samples[jenis];
  if (!fields) {
    throw new Error(`no sample for ${jenis}`);
  }
  return fields;
}

export interface Household {
  tenant: TestTenant;
  sek: Member;
  admin: Member;
  warga: Member;
  unitId: string;
  kkId: string;
  headMemberId: string;
  childMemberId: string;
}

let unitSeq = 0;

/**
 * A resident with a complete profile at a unit with one KK (head plus a child), their account linked to
 * the head, Budi Santoso (every household made here has a head of that name: namesakes on other cards).
 */
export async function household(
  tenant: TestTenant,
  staff?: { sek: Member; admin: Member },
): Promise<Household> {
  const sek = staff?.sek ?? (await tenant.member("sekretaris"));
  const admin = staff?.admin ?? (await tenant.member("admin"));
  unitSeq += 1;
  const unit = await callJson<{ id: string }>("/api/kependudukan/units", {
    token: sek.token,
    body: { block: "C", number: String(unitSeq) },
  });
  expect(unit.status).toBe(201);
  const kk = await callJson<{ id: string; members: { id: string }[] }>("/api/kependudukan/kk", {
    token: sek.token,
    body: {
      kkNumber: nik(),
      unitId: unit.body.id,
      headName: "Budi Santoso",
      headNik: nik(),
      headSex: "L",
      headBirthDate: "1980-01-01",
      headBirthPlace: "Bogor",
      headReligion: "islam",
      headOccupation: "Karyawan Swasta",
      headMaritalStatus: "kawin",
    },
  });
  expect(kk.status).toBe(201);
  const child = await callJson<{ members: { id: string; name: string }[] }>(
    `/api/kependudukan/kk/${kk.body.id}/members`,
    {
      token: sek.token,
      body: {
        name: "Rina Santoso",
        nik: nik("440312"),
        relationship: "anak",
        sex: "P",
        birthDate: "2012-03-04",
        birthPlace: "Bandung",
        religion: "islam",
        occupation: "Pelajar",
        maritalStatus: "belum_kawin",
      },
    },
  );
  expect(child.status).toBe(201);
  const headMemberId = kk.body.members[0]?.id ?? "";
  await completeSettings(tenant, admin);
  const warga = await tenant.member("warga", {
    unitId: unit.body.id,
    whatsapp: `62813${String(unitSeq).padStart(7, "0")}`,
    personId: headMemberId,
  });
  const childMemberId = child.body.members.find((m) => m.name === "Rina Santoso")?.id ?? "";
  return { tenant, sek, admin, warga, unitId: unit.body.id, kkId: kk.body.id, headMemberId, childMemberId };
}

/** A community's whole letterhead, as the demo RT 01 of RW 05 has it. */
export const FULL_SETTINGS = {
  rt: "1",
  rw: "5",
  kelurahan: "Sukamaju",
  kecamatan: "Cibinong",
  kota: "Kabupaten Bogor",
  provinsi: "Jawa Barat",
  headName: "Bambang Sutrisno",
  address: "Jl. Sukamaju Raya No. 1",
};

/** An RW's whole letterhead: no RT number, and the head's name and address left to each test. */
export const RW_SETTINGS = {
  rw: "5",
  kelurahan: "Sukamaju",
  kecamatan: "Cibinong",
  kota: "Kabupaten Bogor",
  provinsi: "Jawa Barat",
};

/** An RW of its own (the world's tenants are RTs) with its letterhead complete, and its admin. */
export async function settledRw(extra: { headName?: string } = {}) {
  const tenant = await createTenant({ type: "RW" });
  const admin = await tenant.member("admin");
  const res = await callJson("/api/surat/settings", {
    method: "PUT",
    token: admin.token,
    body: { ...RW_SETTINGS, ...extra },
  });
  expect(res.status).toBe(200);
  return { tenant, admin };
}

const settled = new Set<string>();
/** Letters are numbered and finished only with complete settings: every household's tenant gets them. */
export async function completeSettings(tenant: TestTenant, admin: Member, body = FULL_SETTINGS) {
  if (settled.has(tenant.id) && body === FULL_SETTINGS) {
    return;
  }
  const res = await callJson("/api/surat/settings", { method: "PUT", token: admin.token, body });
  expect(res.status).toBe(200);
  settled.add(tenant.id);
}

export async function newTenantHousehold() {
  return household(await createTenant());
}

export function request(token: string, body: Record<string, unknown>, headers?: Record<string, string>) {
  return callJson<LetterBody>("/api/surat", { token, body, headers });
}

export function update(token: string, id: string, body: Record<string, unknown>) {
  return callJson<LetterBody>(`/api/surat/${id}`, { method: "PUT", token, body });
}

/** A domisili letter taken all the way to selesai with the given number and date. */
export async function finishedLetter(h: Household, nomorSurat: string, tanggalSurat = "2026-11-20") {
  const created = await request(h.warga.token, {
    jenis: "domisili",
    onBehalfOf: "self",
    keperluan: "Melamar pekerjaan",
    fields: sampleFields("domisili"),
  });
  expect(created.status).toBe(201);
  expect((await update(h.sek.token, created.body.id, { status: "diproses" })).status).toBe(200);
  const done = await update(h.sek.token, created.body.id, { status: "selesai", nomorSurat, tanggalSurat });
  expect(done.status).toBe(200);
  return done.body;
}

/**
 * A household in an RT linked to the RW `rwSlug` whose admin has turned the RW's acknowledgement on: the
 * RW reads an RT's letters only then (off by default, issue 44 P6).
 */
export async function ackingHousehold(rwSlug: string): Promise<Household> {
  const h = await household(await createTenant({ parentSlug: rwSlug }));
  const on = await callJson<{ rwAcknowledgement: boolean }>("/api/surat/settings", {
    method: "PUT",
    token: h.admin.token,
    body: { rwAcknowledgement: true },
  });
  expect(on.body.rwAcknowledgement).toBe(true);
  return h;
}
