/**
 * The 12 letter types an RT issues, with their additional fields. This one table is the list
 * (`GET /api/surat/jenis`), the form schema clients build from, the validation of requests, and the
 * labels the letter's PDF prints: a field added here appears in all four.
 */
export type FieldType =
  | "text"
  | "textarea"
  | "number"
  | "money"
  | "date"
  | "datetime"
  | "select"
  | "member"
  | "members";

export interface FieldDef {
  name: string;
  label: string;
  type: FieldType;
  required: boolean;
  options?: { value: string; label: string }[];
  /** Required unless this other field is given (a deceased from the registry, or by name). */
  requiredUnless?: string;
  pattern?: { regex: string; message: string };
}

/**
 * The subject's particulars a letter can print, all from their registry person (kependudukan) and the
 * community's letter settings (the RT/RW, kelurahan, kecamatan and kota of the address).
 */
export const IDENTITY_FIELDS = [
  "nama",
  "nik",
  "tempatTanggalLahir",
  "jenisKelamin",
  "agama",
  "pekerjaan",
  "statusPerkawinan",
  "kewarganegaraan",
  "alamat",
] as const;
export type IdentityField = (typeof IDENTITY_FIELDS)[number];

export const IDENTITY_LABELS: Record<IdentityField, string> = {
  nama: "Nama",
  nik: "NIK",
  tempatTanggalLahir: "Tempat/Tanggal lahir",
  jenisKelamin: "Jenis kelamin",
  agama: "Agama",
  pekerjaan: "Pekerjaan",
  statusPerkawinan: "Status perkawinan",
  kewarganegaraan: "Kewarganegaraan",
  alamat: "Alamat",
};

const ALL_IDENTITY: readonly IdentityField[] = IDENTITY_FIELDS;
/** For letters where the subject reports or organises something: who they are and where they live. */
const REPORTER: readonly IdentityField[] = [
  "nama",
  "nik",
  "tempatTanggalLahir",
  "jenisKelamin",
  "pekerjaan",
  "alamat",
];

export interface JenisDef {
  code: string;
  name: string;
  description: string;
  /** The short code `{code}` puts in the letter number. */
  numberCode: string;
  /** Days the letter is valid from its date; null for records of an event (birth, death). */
  validityDays: number | null;
  /** What the letter certifies, after the subject's particulars. */
  statement: string;
  /** The subject's particulars it prints, in this order; each must be in the registry to request it. */
  identity: readonly IdentityField[];
  /** The type's own fields, asked of the resident. */
  fields: FieldDef[];
}

const f = (
  name: string,
  label: string,
  type: FieldType,
  required = true,
  extra: Partial<FieldDef> = {},
): FieldDef => ({ name, label, type, required, ...extra });
const opts = (...pairs: [string, string][]) => pairs.map(([value, label]) => ({ value, label }));

export const JENIS: readonly JenisDef[] = [
  {
    code: "pengantar_ktp_kk",
    name: "Surat Pengantar KTP/KK",
    description: "Pengantar ke kelurahan untuk pembuatan atau perubahan KTP-el dan Kartu Keluarga.",
    numberCode: "SP-KTP",
    validityDays: 30,
    statement: "adalah benar warga kami dan bermaksud mengurus dokumen kependudukan sebagaimana berikut.",
    identity: ALL_IDENTITY,
    fields: [
      f("dokumen", "Dokumen yang diurus", "select", true, {
        options: opts(
          ["ktp_baru", "KTP-el baru"],
          ["ktp_ganti", "Penggantian KTP-el"],
          ["kk_baru", "Kartu Keluarga baru"],
          ["kk_perubahan", "Perubahan Kartu Keluarga"],
        ),
      }),
      f("alasan", "Alasan", "textarea"),
    ],
  },
  {
    code: "domisili",
    name: "Surat Keterangan Domisili",
    description: "Keterangan bahwa yang bersangkutan bertempat tinggal di lingkungan RT.",
    numberCode: "SKD",
    validityDays: 180,
    statement: "adalah benar bertempat tinggal (berdomisili) di lingkungan kami.",
    identity: ALL_IDENTITY,
    fields: [
      f("sejak", "Berdomisili sejak", "date"),
      f("alamatSebelumnya", "Alamat sebelumnya", "textarea", false),
    ],
  },
  {
    code: "sktm",
    name: "Surat Keterangan Tidak Mampu (SKTM)",
    description: "Keterangan keluarga berpenghasilan rendah untuk rumah sakit, bantuan sosial, dan lainnya.",
    numberCode: "SKTM",
    validityDays: 90,
    statement: "adalah benar warga kami yang tergolong keluarga kurang mampu.",
    identity: ALL_IDENTITY,
    fields: [
      f("penghasilanBulanan", "Penghasilan keluarga per bulan (Rp)", "money"),
      f("jumlahTanggungan", "Jumlah tanggungan", "number"),
      f("ditujukanKepada", "Ditujukan kepada", "select", true, {
        options: opts(
          ["rumah_sakit", "Rumah sakit / puskesmas"],
          ["bantuan_sosial", "Bantuan sosial"],
          ["sekolah", "Sekolah / beasiswa"],
          ["lainnya", "Lainnya"],
        ),
      }),
    ],
  },
  {
    code: "tidak_mampu",
    name: "Surat Keterangan Tidak Mampu untuk Sekolah",
    description: "Keterangan ketidakmampuan orang tua membiayai pendidikan anak.",
    numberCode: "SKTM-P",
    validityDays: 90,
    statement:
      "adalah benar orang tua/wali dari siswa berikut dan tergolong kurang mampu membiayai pendidikan.",
    identity: ["nama", "nik", "tempatTanggalLahir", "jenisKelamin", "agama", "pekerjaan", "alamat"],
    fields: [
      f("namaSiswa", "Nama siswa", "text"),
      f("sekolah", "Sekolah", "text"),
      f("kelas", "Kelas", "text"),
      f("penghasilanAyah", "Penghasilan ayah per bulan (Rp)", "money"),
      f("penghasilanIbu", "Penghasilan ibu per bulan (Rp)", "money"),
    ],
  },
  {
    code: "usaha",
    name: "Surat Keterangan Usaha",
    description: "Keterangan bahwa yang bersangkutan menjalankan usaha di lingkungan RT.",
    numberCode: "SKU",
    validityDays: 180,
    statement: "adalah benar warga kami yang menjalankan usaha sebagai berikut.",
    identity: [
      "nama",
      "nik",
      "tempatTanggalLahir",
      "jenisKelamin",
      "agama",
      "pekerjaan",
      "kewarganegaraan",
      "alamat",
    ],
    fields: [
      f("namaUsaha", "Nama usaha", "text"),
      f("jenisUsaha", "Jenis usaha", "text"),
      f("alamatUsaha", "Alamat usaha", "textarea"),
      f("sejak", "Berdiri sejak", "date"),
    ],
  },
  {
    code: "kematian",
    name: "Surat Keterangan Kematian",
    description: "Pengantar pelaporan kematian warga ke kelurahan.",
    numberCode: "SKK",
    validityDays: null,
    statement: "melaporkan kematian warga kami sebagai berikut.",
    identity: REPORTER,
    fields: [
      f("almarhumAnggotaId", "Almarhum/almarhumah (dari data KK)", "member", false),
      f("namaAlmarhum", "Nama almarhum/almarhumah", "text", true, { requiredUnless: "almarhumAnggotaId" }),
      f("tanggalMeninggal", "Tanggal meninggal", "date"),
      f("tempatMeninggal", "Tempat meninggal", "text"),
      f("sebab", "Sebab kematian", "text"),
      f("namaPelapor", "Nama pelapor", "text"),
      f("hubunganPelapor", "Hubungan pelapor dengan almarhum", "text"),
    ],
  },
  {
    code: "pindah",
    name: "Surat Pengantar Pindah",
    description: "Pengantar pindah domisili ke luar lingkungan RT.",
    numberCode: "SKP",
    validityDays: 30,
    statement: "bermaksud pindah tempat tinggal dengan keterangan sebagai berikut.",
    identity: ALL_IDENTITY,
    fields: [
      f("alamatTujuan", "Alamat tujuan (jalan, nomor)", "text"),
      f("rtTujuan", "RT tujuan", "text", true, {
        pattern: { regex: "^\\d{1,3}$", message: "1 to 3 digits" },
      }),
      f("rwTujuan", "RW tujuan", "text", true, {
        pattern: { regex: "^\\d{1,3}$", message: "1 to 3 digits" },
      }),
      f("kelurahanTujuan", "Kelurahan/desa tujuan", "text"),
      f("kecamatanTujuan", "Kecamatan tujuan", "text"),
      f("kotaTujuan", "Kota/kabupaten tujuan", "text"),
      f("provinsiTujuan", "Provinsi tujuan", "text"),
      f("kodePosTujuan", "Kode pos tujuan", "text", true, {
        pattern: { regex: "^\\d{5}$", message: "5 digits" },
      }),
      f("alasan", "Alasan pindah", "textarea"),
      f("anggotaPindah", "Anggota keluarga yang pindah", "members"),
      f("tanggalPindah", "Tanggal pindah", "date"),
    ],
  },
  {
    code: "kelahiran",
    name: "Surat Keterangan Kelahiran",
    description: "Pengantar pelaporan kelahiran anak ke kelurahan.",
    numberCode: "SKL",
    validityDays: null,
    statement: "melaporkan kelahiran anak dengan keterangan sebagai berikut.",
    identity: REPORTER,
    fields: [
      f("namaAnak", "Nama anak", "text"),
      f("jenisKelamin", "Jenis kelamin anak", "select", true, {
        options: opts(["L", "Laki-laki"], ["P", "Perempuan"]),
      }),
      f("tanggalLahir", "Tanggal lahir", "date"),
      f("tempatLahir", "Tempat lahir", "text"),
      f("namaAyah", "Nama ayah", "text"),
      f("namaIbu", "Nama ibu", "text"),
    ],
  },
  {
    code: "belum_menikah",
    name: "Surat Keterangan Belum Menikah",
    description: "Keterangan bahwa yang bersangkutan belum pernah menikah.",
    numberCode: "SKBM",
    validityDays: 90,
    statement: "sepanjang pengetahuan kami belum pernah menikah (berstatus lajang).",
    identity: ALL_IDENTITY,
    fields: [],
  },
  {
    code: "pengantar_skck",
    name: "Surat Pengantar SKCK",
    description: "Pengantar ke kelurahan/kepolisian untuk Surat Keterangan Catatan Kepolisian.",
    numberCode: "SP-SKCK",
    validityDays: 30,
    statement: "adalah benar warga kami, berkelakuan baik, dan bermaksud mengurus SKCK.",
    identity: ALL_IDENTITY,
    fields: [f("alasan", "Keperluan SKCK", "textarea")],
  },
  {
    code: "izin_keramaian",
    name: "Surat Pengantar Izin Keramaian",
    description: "Pengantar izin keramaian untuk hajatan atau acara warga.",
    numberCode: "SP-IK",
    validityDays: 30,
    statement: "bermaksud menyelenggarakan acara dengan keterangan sebagai berikut.",
    identity: REPORTER,
    fields: [
      f("jenisAcara", "Jenis acara", "text"),
      f("waktuAcara", "Tanggal dan jam acara", "datetime"),
      f("tempat", "Tempat", "text"),
      f("perkiraanTamu", "Perkiraan jumlah tamu", "number"),
      f("hiburan", "Hiburan", "text", false),
    ],
  },
  {
    code: "kehilangan",
    name: "Surat Pengantar Laporan Kehilangan",
    description: "Pengantar laporan kehilangan barang atau dokumen ke kepolisian.",
    numberCode: "SP-KH",
    validityDays: 30,
    statement: "melaporkan kehilangan dengan keterangan sebagai berikut.",
    identity: REPORTER,
    fields: [
      f("barang", "Barang/dokumen yang hilang", "text"),
      f("keterangan", "Keterangan (ciri, nomor dokumen)", "textarea"),
      f("tanggalHilang", "Tanggal hilang", "date"),
      f("tempatHilang", "Tempat hilang", "text"),
    ],
  },
];

export const JENIS_CODES = JENIS.map((j) => j.code) as [string, ...string[]];
const byCode = new Map(JENIS.map((j) => [j.code, j]));

export function jenisOf(code: string): JenisDef {
  const def = byCode.get(code);
  if (!def) {
    throw new Error(`unknown letter type ${code}`);
  }
  return def;
}
