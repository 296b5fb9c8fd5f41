/**
 * Field messages the code writes itself (zod refinements and `message`/`error` options, the verbs'
 * own `Invalid(…, [{ field, message }])`), in Indonesian (issue 42 item 5): zod's own messages come from
 * its `id` locale (core/http/endpoint.ts), these from here. Keyed by the English text as written at the
 * throw site; `{}` stands for a part the site fills in (a number, a name, a list), carried over as is.
 *
 * test/core/i18n-fields.test.ts sends invalid requests built from every operation's schema with
 * `Accept-Language: id` and fails on any message still in English: a new English message needs its line
 * here.
 */
export const FIELD_MESSAGES_ID: Readonly<Record<string, string>> = {
  // core
  "must not contain control characters": "tidak boleh berisi karakter kontrol",
  "must be 1 to 255 visible ASCII characters": "harus 1 sampai 255 karakter ASCII yang terlihat",
  "text of at most {} characters, without control characters":
    "teks paling banyak {} karakter, tanpa karakter kontrol",
  "at most 300 characters, no control characters": "paling banyak 300 karakter, tanpa karakter kontrol",
  "not an Indonesian mobile number (08…, +62…, 62…)": "bukan nomor ponsel Indonesia (08…, +62…, 62…)",
  "not a phone number (08…, +62…, 62…, or + and the country code)":
    "bukan nomor telepon (08…, +62…, 62…, atau + dan kode negara)",
  "not a vehicle plate (letters, digits, spaces, dashes)":
    "bukan nomor polisi (huruf, angka, spasi, tanda hubung)",
  "a date (YYYY-MM-DD or DD-MM-YYYY)": "tanggal (YYYY-MM-DD atau DD-MM-YYYY)",
  "not a calendar date": "bukan tanggal yang ada di kalender",
  "YYYY-MM-DD": "harus berformat YYYY-MM-DD",
  "expected YYYY-MM-DD": "harus berformat YYYY-MM-DD",
  "a month YYYY-MM": "bulan berformat YYYY-MM",
  "use HH:MM (24-hour, Asia/Jakarta)": "gunakan HH:MM (24 jam, Asia/Jakarta)",
  "one of {}": "salah satu dari {}",
  "unknown cursor": "bukan kursor yang diberikan daftar ini; mulai lagi tanpa kursor",
  "unreadable multipart body": "isi multipart tidak dapat dibaca",
  "missing or too large": "tidak ada atau terlalu besar",
  "purpose is {}": "keperluannya {}",
  "unsafe path": "path tidak aman",
  "must be a positive integer": "harus bilangan bulat positif",
  // zod's own English, from a schema a verb parses itself (its locale is the request's only at the edge)
  "Invalid input: expected {}, received {}": "Input tidak valid: diharapkan {}, diterima {}",
  "Invalid input: expected {}": "Input tidak valid: diharapkan {}",
  "Invalid option: expected one of {}": "Pilihan tidak valid: diharapkan salah satu dari {}",
  "Too big: expected {} to have {} characters": "Terlalu besar: diharapkan {} memiliki {} karakter",
  "Too big: expected {} to have {} items": "Terlalu besar: diharapkan {} memiliki {} item",
  "Too big: expected {} to be {}": "Terlalu besar: diharapkan {} menjadi {}",
  "Too small: expected {} to have {} characters": "Terlalu kecil: diharapkan {} memiliki {} karakter",
  "Too small: expected {} to have {} items": "Terlalu kecil: diharapkan {} memiliki {} item",
  "Too small: expected {} to be {}": "Terlalu kecil: diharapkan {} menjadi {}",
  "Invalid string: must match pattern {}": "String tidak valid: harus sesuai pola {}",
  "Invalid email address": "Alamat email tidak valid",
  "Invalid ISO datetime": "Tanggal dan waktu format ISO tidak valid",
  "Invalid ISO date": "Tanggal format ISO tidak valid",
  "Invalid URL": "URL tidak valid",
  "Unrecognized key: {}": "Kunci tidak dikenali: {}",
  "Unrecognized keys: {}": "Kunci tidak dikenali: {}",
  "Invalid input": "Input tidak valid",
  // general
  required: "wajib diisi",
  "required unless {} is given": "wajib diisi kecuali {} diisi",
  empty: "kosong",
  "nothing to change": "tidak ada yang diubah",
  "not set": "belum diatur",
  "unknown: {}": "tidak dikenal: {}",
  "at most {}": "paling banyak {}",
  "at least {} characters": "paling sedikit {} karakter",
  "in the future": "tidak boleh di masa depan",
  "in the past": "tidak boleh di masa lalu",
  "after today (Asia/Jakarta)": "tidak boleh setelah hari ini (Asia/Jakarta)",
  "after to": "tidak boleh setelah tanggal `to`",
  "before start": "tidak boleh sebelum awal",
  "before startsAt": "tidak boleh sebelum startsAt",
  "before validFrom": "tidak boleh sebelum validFrom",
  "end must be after start": "akhir harus setelah awal",
  "more than an hour ago": "lebih dari satu jam yang lalu",
  "more than 90 days ahead": "lebih dari 90 hari ke depan",
  "already attached": "sudah dilampirkan",
  "the same photo twice": "foto yang sama dua kali",
  "a phone number": "nomor telepon",
  "5 digits": "5 angka",
  "16 digits": "16 angka",
  "1 to 3 digits": "1 sampai 3 angka",
  "9 to 15 digits": "9 sampai 15 angka",
  "{} is 16 digits": "{} harus 16 angka",
  "at least 2 characters": "paling sedikit 2 karakter",
  // identity, members, tenants
  "3 to 48 lowercase letters, digits or hyphens": "3 sampai 48 huruf kecil, angka atau tanda hubung",
  "lowercase letters, digits and dashes, 2-30 characters":
    "huruf kecil, angka dan tanda hubung, 2-30 karakter",
  "each duty at most once": "setiap tugas paling banyak sekali",
  "a member with no duty lives here: give their house": "anggota tanpa tugas tinggal di sini: isi rumahnya",
  "an email or a WhatsApp number, to send the invitation to": "email atau nomor WhatsApp tujuan undangan",
  "Give an email or a WhatsApp number (or both)": "Isi email atau nomor WhatsApp (atau keduanya)",
  "Give exactly one of email or whatsapp": "Isi tepat satu dari email atau whatsapp",
  "Give at least one of name, flags, status, parentSlug":
    "Isi paling sedikit satu dari name, flags, status, parentSlug",
  "only for type RT": "hanya untuk komunitas bertipe RT",
  "not an RT tenant": "bukan komunitas RT",
  "no RW tenant with this slug": "tidak ada komunitas RW dengan slug ini",
  "does not match the tenant's slug": "tidak cocok dengan slug komunitas",
  "the tenant itself": "komunitas itu sendiri",
  "the caller": "diri Anda sendiri",
  "an FCM or APNs token: letters, digits, _ : . -": "token FCM atau APNs: huruf, angka, _ : . -",
  "a base64 PNG, JPEG or SVG data: URL": "data: URL base64 berisi PNG, JPEG atau SVG",
  // kependudukan
  "latitude and longitude go together": "latitude dan longitude harus diisi bersama",
  "latitude and longitude are cleared together": "latitude dan longitude harus dikosongkan bersama",
  "coordinates out of range": "koordinat di luar jangkauan",
  "unknown block {}": "blok tidak dikenal: {}",
  "{} is not in the registry": "{} tidak ada di data kependudukan",
  "a NIK is 16 digits": "NIK harus 16 angka",
  "a KK number is 16 digits": "nomor KK harus 16 angka",
  "the NIK does not start with a valid province code": "NIK tidak diawali kode provinsi yang sah",
  "the KK number does not start with a valid province code": "nomor KK tidak diawali kode provinsi yang sah",
  "digits 7 to 12 of the NIK are not a valid date of birth (DDMMYY, day + 40 for women)":
    "angka ke-7 sampai ke-12 NIK bukan tanggal lahir yang sah (DDMMYY, tanggal + 40 untuk perempuan)",
  "the NIK's serial (last four digits) cannot be 0000":
    "nomor urut NIK (empat angka terakhir) tidak boleh 0000",
  "a member's field needs memberId; `lainnya` (anything else) goes without":
    "data anggota perlu memberId; `lainnya` (hal lain) tanpa memberId",
  "only an approval links a person": "hanya persetujuan yang menautkan seseorang",
  "a rejection needs a reason": "penolakan perlu alasan",
  "block and house number are at most 20 characters": "blok dan nomor rumah paling banyak 20 karakter",
  "a KK number from the Anggota sheet is required": "nomor KK dari lembar Anggota wajib diisi",
  "no member of this KK in the Anggota sheet": "tidak ada anggota KK ini di lembar Anggota",
  "this KK number is already registered": "nomor KK ini sudah terdaftar",
  "this NIK is already registered": "NIK ini sudah terdaftar",
  "this plate is already registered": "pelat nomor ini sudah terdaftar",
  "not an .xlsx file": "bukan berkas .xlsx",
  "The Anggota sheet has no rows.": "Lembar Anggota tidak berisi baris.",
  "The CSV is not UTF-8 text.": "CSV bukan teks UTF-8.",
  // visitor, musyawarah, surat
  "validFrom and validUntil go together": "validFrom dan validUntil harus diisi bersama",
  "give either qr or code": "isi qr atau code, salah satu saja",
  "give one of qr, code or visitorId": "isi salah satu dari qr, code atau visitorId",
  "no such house": "rumah ini tidak ada",
  "untilTime after fromTime": "untilTime harus setelah fromTime",
  "each day once": "setiap hari cukup sekali",
  "block and number together": "blok dan nomor harus diisi bersama",
  "exactly one of an email or a WhatsApp number": "isi tepat satu: email atau nomor WhatsApp",
  "required when you moved out of more than one community":
    "wajib diisi bila Anda pindah dari lebih dari satu komunitas",
  "a percentage is at most 100": "persentase paling banyak 100",
  "options must be distinct": "pilihan tidak boleh sama",
  "not a valid choice for this poll": "bukan pilihan yang sah untuk musyawarah ini",
  "needs {seq} (or {seq:3}) exactly once": "harus berisi {seq} (atau {seq:3}) tepat satu kali",
  "needs {year}": "harus berisi {year}",
  "required for ditolak and perlu_perbaikan": "wajib untuk ditolak dan perlu_perbaikan",
  "Give rules or agenda": "Isi rules atau agenda",
  // content, marketplace, finance, uploads, support, assistant
  "not an upload of this community: {}": "bukan unggahan komunitas ini: {}",
  "Upload the image first; only your own uploads can be attached.":
    "Unggah gambarnya dulu; hanya unggahan Anda sendiri yang dapat dilampirkan.",
  "This image is already attached elsewhere.": "Gambar ini sudah dilampirkan di tempat lain.",
  "not an inbound image key": "bukan kunci gambar masuk",
  "message or status is required": "message atau status wajib diisi",
  "an image goes with a message": "gambar harus disertai pesan",
  "required for goods": "wajib untuk barang",
  "leave it out for jasa": "kosongkan untuk jasa",
  "barang_bekas is bekas": "barang_bekas harus berkondisi bekas",
  "the last turn must be the user's": "giliran terakhir harus dari pengguna",
  "at most {} characters in all turns together": "paling banyak {} karakter untuk semua giliran",
  // the notification service (workers/notify)
  "{} is not used by the template": "{} tidak dipakai oleh templat",
  "required by the template": "wajib menurut templat",
  "1 to 200 characters": "1 sampai 200 karakter",
  "differs from the Idempotency-Key header": "berbeda dengan header Idempotency-Key",
};

/** Each template as an anchored pattern: `{}` takes any text, everything else is literal. */
const TEMPLATES: readonly { pattern: RegExp; id: string }[] = Object.entries(FIELD_MESSAGES_ID)
  .filter(([en]) => en.includes("{}"))
  .map(([en, id]) => ({
    pattern: new RegExp(
      `^${en
        .split("{}")
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
        .join("(.+?)")}$`,
      "s",
    ),
    id,
  }));

/** A field message in Indonesian: the catalogue's line for it, or the message unchanged when it has none. */
export function indonesianFieldMessage(message: string): string {
  const exact = FIELD_MESSAGES_ID[message];
  if (exact !== undefined && !message.includes("{}")) {
    return exact;
  }
  for (const { pattern, id } of TEMPLATES) {
    const match = pattern.exec(message);
    if (match) {
      let i = 1;
      return id.replace(/\{\}/g, () => match[i++] ?? "");
    }
  }
  return message;
}
