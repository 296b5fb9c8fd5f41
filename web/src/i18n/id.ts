/** Every string of the app in Indonesian, the first language; en.ts has the same keys. */
export const id = {
  "app.name": "Warga",
  "app.skip": "Lewati ke isi",
  "app.language": "English",
  "app.languageLabel": "Ganti bahasa ke English",
  "app.offline": "Anda sedang offline",
  "nav.home": "Beranda",
  "nav.signOut": "Keluar",
  "nav.main": "Menu utama",
  "nav.menu": "Lainnya",
  "nav.iuran": "Iuran",
  "nav.surat": "Surat",
  "nav.tamu": "Tamu",
  "nav.satpam": "Pos Satpam",
  "nav.musyawarah": "Musyawarah",
  "nav.aspirasi": "Aspirasi",
  "nav.berita": "Berita",
  "nav.pengumuman": "Pengumuman",
  "nav.agenda": "Agenda",
  "nav.galeri": "Galeri",
  "nav.pasar": "Pasar",
  "nav.asisten": "Asisten",
  "nav.profil": "Profil",
  "nav.switch": "Ganti komunitas",
  "common.loading": "Memuat…",
  "common.retry": "Coba lagi",
  "common.error": "Terjadi masalah. Coba lagi sebentar lagi.",
  "common.network": "Tidak dapat menghubungi server. Periksa koneksi Anda, lalu coba lagi.",
  "common.required": "Wajib diisi.",
  "common.sending": "Mengirim…",
  "common.more": "Muat lagi",
  "common.back": "Kembali ke beranda",
  "signIn.title": "Masuk ke Warga",
  "signIn.email": "Email",
  "signIn.password": "Kata sandi",
  "signIn.submit": "Masuk",
  "signIn.magic": "Masuk dengan tautan lewat email",
  "signIn.forgot": "Lupa kata sandi?",
  "signIn.google": "Masuk dengan Google",
  "magic.title": "Masuk dengan tautan",
  "magic.intro": "Kami kirim tautan masuk ke email Anda. Tautan berlaku sebentar dan hanya sekali pakai.",
  "magic.submit": "Kirim tautan",
  "magic.sent": "Jika email itu terdaftar, tautan masuk sudah kami kirim. Buka email Anda.",
  "magic.landing": "Sedang memasukkan Anda…",
  "magic.failed": "Tautan ini tidak berlaku lagi. Minta tautan baru.",
  "magic.again": "Minta tautan baru",
  "forgot.title": "Lupa kata sandi",
  "forgot.intro": "Masukkan email Anda; kami kirim tautan untuk membuat kata sandi baru.",
  "forgot.submit": "Kirim tautan",
  "forgot.sent": "Jika email itu terdaftar, tautan untuk membuat kata sandi baru sudah kami kirim.",
  "forgot.back": "Kembali ke halaman masuk",
  "join.title": "Bergabung dengan komunitas",
  "join.loading": "Memeriksa undangan…",
  "join.newAccount": "Buat kata sandi untuk akun baru Anda.",
  "join.password": "Kata sandi baru (minimal 8 karakter)",
  "join.submit": "Bergabung",
  "join.confirm": "Anda masuk sebagai {name}. Terima undangan ini?",
  "join.intro": "Terima undangan untuk bergabung dengan komunitas ini?",
  "join.confirmSubmit": "Ya, bergabung",
  "join.signInFirst": "Undangan ini untuk akun yang sudah ada. Masuk dulu, lalu buka tautan ini lagi.",
  "join.missing": "Tautan undangan tidak lengkap.",
  "join.done": "Selamat bergabung di {community}.",
  "join.duties": "Tugas Anda: {duties}",
  "choose.title": "Pilih komunitas",
  "choose.intro": "Akun Anda terdaftar di beberapa komunitas. Pilih yang ingin Anda buka.",
  "choose.current": "(sedang dibuka)",
  "home.title": "Beranda",
  "home.greeting": "Halo, {name}",
  "home.needs": "Yang perlu Anda perhatikan",
  "home.bills": "Iuran belum dibayar",
  "home.billsNone": "Tidak ada iuran yang belum dibayar.",
  "home.billDue": "{period}: {amount}",
  "home.billsTotal": "Total: {amount}",
  "home.letters": "Surat",
  "home.lettersNone": "Tidak ada surat yang sedang diproses.",
  "home.polls": "Musyawarah yang dibuka",
  "home.pollsNone": "Tidak ada musyawarah yang sedang dibuka.",
  "home.pollCloses": "ditutup {date}",
  "home.news": "Pengumuman terbaru",
  "home.newsNone": "Belum ada pengumuman.",
  "home.notResident": "Layar warga untuk penghuni rumah di komunitas ini. Layar pengurus menyusul.",
  "letter.diajukan": "diajukan",
  "letter.diproses": "diproses",
  "letter.perlu_perbaikan": "perlu perbaikan",
  "letter.selesai": "selesai, siap diunduh",
  "letter.ditolak": "ditolak",
  "letter.dibatalkan": "dibatalkan",
  "notFound.title": "Halaman tidak ditemukan",
  "notFound.body": "Alamat ini tidak ada di aplikasi Warga.",
  "signOut.done": "Anda sudah keluar.",

  // iuran: strings of web/src/screens/iuran

  // surat: strings of web/src/screens/surat

  // tamu: strings of web/src/screens/tamu

  // satpam: strings of web/src/screens/satpam

  // musyawarah: strings of web/src/screens/musyawarah

  // aspirasi: strings of web/src/screens/aspirasi

  // konten: strings of web/src/screens/konten

  // pasar: strings of web/src/screens/pasar

  // asisten: strings of web/src/screens/asisten

  // profil: strings of web/src/screens/profil

  // pwa: strings of the installed app (web/src/pwa)
  "pwa.offlineSince": "Anda sedang offline — data terakhir dilihat {time}",
  "pwa.push": "Notifikasi di perangkat ini",
  "pwa.pushHint": "Pengumuman, berita, surat dan tamu muncul di perangkat ini walau aplikasi tertutup.",
  "pwa.pushBlocked": "Notifikasi diblokir di browser ini. Izinkan lewat pengaturan situs, lalu coba lagi.",
  "pwa.pushUnsupported": "Browser ini tidak mendukung notifikasi.",

  // auth: strings of the later sign-in screens (web/src/screens/auth)
} as const;

export type MessageKey = keyof typeof id;
export type Messages = Record<MessageKey, string>;
