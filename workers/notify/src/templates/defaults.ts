import { emailLayout } from "./layout";

// The seeded templates (Indonesian copy). scripts/seed-sql.ts turns this list into the seed migration, so the
// database and the code agree; edits made later over PUT /v1/templates/:code live only in the database.

export interface DefaultTemplate {
  code: string;
  name: string;
  description: string;
  subject: string;
  html: string;
  text: string;
  variables: string[];
  sampleData: Record<string, string>;
}

const quote = (variable: string) =>
  `<div style="background:#f9fafb;border-left:4px solid #0f766e;padding:12px 16px;margin:8px 0">{{${variable}}}</div>`;

const ticketNote =
  "Balas email ini untuk menanggapi tiket. Jangan mengubah kode [TKT:{{replyToken}}] pada subjek agar balasan Anda tercatat.";

const textFooter = "\n\n--\n{{brandName}}";

export const defaultTemplates: DefaultTemplate[] = [
  {
    code: "WELCOME",
    name: "Selamat datang",
    description: "Dikirim saat akun warga atau pengurus dibuat.",
    subject: "Selamat datang di {{brandName}}, {{name}}!",
    html: emailLayout({
      heading: "Selamat datang, {{name}}!",
      body: "Akun Anda di {{tenantName}} sudah aktif. Melalui {{brandName}} Anda dapat melihat pengumuman, membayar iuran, mengajukan surat, dan mendaftarkan tamu.",
      action: { label: "Masuk ke akun", urlVariable: "loginUrl" },
    }),
    text: `Halo {{name}},\n\nAkun Anda di {{tenantName}} sudah aktif. Masuk melalui tautan berikut:\n{{loginUrl}}${textFooter}`,
    variables: ["name", "tenantName", "loginUrl"],
    sampleData: {
      name: "Budi Santoso",
      tenantName: "RT 05 / RW 02 Kelurahan Sukamaju",
      loginUrl: "https://warga.example/masuk",
    },
  },
  {
    code: "PASSWORD_RESET",
    name: "Atur ulang kata sandi",
    description: "Tautan untuk mengatur ulang kata sandi.",
    subject: "Atur ulang kata sandi {{brandName}}",
    html: emailLayout({
      heading: "Atur ulang kata sandi",
      body: "Halo {{name}}, kami menerima permintaan untuk mengatur ulang kata sandi akun Anda. Tautan ini berlaku selama {{expiresInMinutes}} menit.",
      action: { label: "Atur ulang kata sandi", urlVariable: "resetUrl" },
      note: "Jika Anda tidak meminta pengaturan ulang, abaikan email ini. Kata sandi Anda tidak akan berubah.",
    }),
    text: `Halo {{name}},\n\nAtur ulang kata sandi Anda melalui tautan berikut (berlaku {{expiresInMinutes}} menit):\n{{resetUrl}}\n\nJika Anda tidak memintanya, abaikan email ini.${textFooter}`,
    variables: ["name", "resetUrl", "expiresInMinutes"],
    sampleData: {
      name: "Budi Santoso",
      resetUrl: "https://warga.example/reset-password?token=contoh",
      expiresInMinutes: "30",
    },
  },
  {
    code: "MAGIC_LINK",
    name: "Tautan masuk",
    description: "Tautan masuk sekali pakai tanpa kata sandi.",
    subject: "Tautan masuk ke {{brandName}}",
    html: emailLayout({
      heading: "Masuk ke {{brandName}}",
      body: "Halo {{name}}, klik tombol di bawah untuk masuk. Tautan hanya dapat dipakai sekali dan berlaku selama {{expiresInMinutes}} menit.",
      action: { label: "Masuk sekarang", urlVariable: "loginUrl" },
      note: "Jika Anda tidak mencoba masuk, abaikan email ini.",
    }),
    text: `Halo {{name}},\n\nMasuk ke {{brandName}} melalui tautan berikut (sekali pakai, berlaku {{expiresInMinutes}} menit):\n{{loginUrl}}${textFooter}`,
    variables: ["loginUrl", "expiresInMinutes"],
    sampleData: {
      name: "Budi Santoso",
      loginUrl: "https://warga.example/masuk?token=contoh",
      expiresInMinutes: "15",
    },
  },
  {
    code: "PAYMENT_REMINDER",
    name: "Pengingat iuran",
    description: "Pengingat tagihan iuran yang belum dibayar.",
    subject: "Pengingat iuran {{period}} – {{tenantName}}",
    html: emailLayout({
      heading: "Pengingat iuran {{period}}",
      body: `Halo {{name}}, iuran Anda untuk periode <strong>{{period}}</strong> sebesar <strong>{{amount}}</strong> belum kami terima. Mohon lakukan pembayaran sebelum <strong>{{dueDate}}</strong>.`,
      action: { label: "Bayar iuran", urlVariable: "paymentUrl" },
      note: "Abaikan pengingat ini jika Anda sudah membayar.",
    }),
    text: `Halo {{name}},\n\nIuran {{tenantName}} periode {{period}} sebesar {{amount}} belum kami terima. Batas pembayaran: {{dueDate}}.\nBayar melalui: {{paymentUrl}}\n\nAbaikan pesan ini jika Anda sudah membayar.${textFooter}`,
    variables: ["name", "tenantName", "period", "amount", "dueDate", "paymentUrl"],
    sampleData: {
      name: "Budi Santoso",
      tenantName: "RT 05 / RW 02",
      period: "November 2026",
      amount: "Rp150.000",
      dueDate: "10 Desember 2026",
      paymentUrl: "https://warga.example/iuran",
    },
  },
  {
    code: "CONTACT_INQUIRY",
    name: "Pesan formulir kontak",
    description: "Diteruskan ke tim saat pengunjung situs mengisi formulir kontak.",
    subject: "Pesan baru dari formulir kontak: {{name}}",
    html: emailLayout({
      heading: "Pesan baru dari formulir kontak",
      body: `<strong>Nama:</strong> {{name}}<br><strong>Email:</strong> {{email}}<br><strong>Telepon:</strong> {{phone}}<br><strong>Organisasi:</strong> {{organization}}${quote("message")}`,
    }),
    text: "Pesan baru dari formulir kontak\n\nNama: {{name}}\nEmail: {{email}}\nTelepon: {{phone}}\nOrganisasi: {{organization}}\n\n{{message}}",
    variables: ["name", "email", "message"],
    sampleData: {
      name: "Siti Aminah",
      email: "siti@example.com",
      phone: "081234567890",
      organization: "RW 07 Kelurahan Mekarsari",
      message: "Kami ingin mencoba Warga untuk 12 RT di wilayah kami.",
    },
  },
  {
    code: "CONTACT_AUTO_REPLY",
    name: "Balasan otomatis formulir kontak",
    description: "Balasan otomatis kepada pengirim formulir kontak.",
    // The token lets the sender answer by email: the ticket-mail Worker threads the reply into the ticket.
    subject: "[TKT:{{replyToken}}] Terima kasih telah menghubungi {{brandName}}",
    html: emailLayout({
      heading: "Terima kasih, {{name}}",
      body: `Pesan Anda sudah kami terima. Tim kami akan membalas dalam 1–2 hari kerja. Ringkasan pesan Anda:${quote("message")}`,
    }),
    text: `Halo {{name}},\n\nPesan Anda sudah kami terima. Tim kami akan membalas dalam 1–2 hari kerja.\n\nPesan Anda:\n{{message}}${textFooter}`,
    variables: ["name", "replyToken"],
    sampleData: {
      name: "Siti Aminah",
      replyToken: "q0Zl3c9R2hVb8wJtY4kN1xPaE7uMfD6s",
      message: "Kami ingin mencoba Warga untuk 12 RT di wilayah kami.",
    },
  },
  {
    code: "SUPPORT_TICKET_CREATED",
    name: "Tiket bantuan dibuat",
    description: "Konfirmasi kepada pengurus bahwa tiket bantuan diterima.",
    subject: "[TKT:{{replyToken}}] Tiket #{{ticketNumber}} diterima: {{ticketSubject}}",
    html: emailLayout({
      heading: "Tiket #{{ticketNumber}} sudah kami terima",
      body: `Halo {{submitterName}}, tiket bantuan dari {{tenantName}} dengan judul <strong>{{ticketSubject}}</strong> sudah tercatat. Tim kami akan segera menanggapinya.${quote("message")}`,
      action: { label: "Lihat tiket", urlVariable: "ticketUrl" },
      note: ticketNote,
    }),
    text: `Halo {{submitterName}},\n\nTiket #{{ticketNumber}} ({{ticketSubject}}) dari {{tenantName}} sudah kami terima.\n\n{{message}}\n\nLihat tiket: {{ticketUrl}}\nBalas email ini untuk menanggapi; jangan ubah kode [TKT:{{replyToken}}] pada subjek.${textFooter}`,
    variables: ["replyToken", "ticketNumber", "ticketSubject", "submitterName", "ticketUrl"],
    sampleData: {
      replyToken: "3f9a1c2e7b5d4a60",
      ticketNumber: "1024",
      ticketSubject: "Tidak bisa mengunduh laporan kas",
      submitterName: "Budi Santoso",
      tenantName: "RT 05 / RW 02",
      message: "Tombol unduh laporan kas bulan Oktober tidak merespons.",
      ticketUrl: "https://warga.example/tiket/3f9a1c2e7b5d4a60",
    },
  },
  {
    code: "SUPPORT_TICKET_SUBMITTER_REPLIED",
    name: "Balasan pengirim tiket",
    description: "Memberi tahu operator bahwa pengirim tiket membalas.",
    subject: "[TKT:{{replyToken}}] Balasan baru pada tiket #{{ticketNumber}}: {{ticketSubject}}",
    html: emailLayout({
      heading: "Balasan baru pada tiket #{{ticketNumber}}",
      body: `{{submitterName}} dari {{tenantName}} membalas tiket <strong>{{ticketSubject}}</strong>:${quote("message")}`,
      action: { label: "Buka tiket", urlVariable: "ticketUrl" },
      note: ticketNote,
    }),
    text: `{{submitterName}} dari {{tenantName}} membalas tiket #{{ticketNumber}} ({{ticketSubject}}):\n\n{{message}}\n\nBuka tiket: {{ticketUrl}}${textFooter}`,
    variables: ["replyToken", "ticketNumber", "ticketSubject", "submitterName", "message", "ticketUrl"],
    sampleData: {
      replyToken: "3f9a1c2e7b5d4a60",
      ticketNumber: "1024",
      ticketSubject: "Tidak bisa mengunduh laporan kas",
      submitterName: "Budi Santoso",
      tenantName: "RT 05 / RW 02",
      message: "Sudah saya coba di peramban lain, hasilnya sama.",
      ticketUrl: "https://warga.example/platform/tiket/1024",
    },
  },
  {
    code: "SUPPORT_TICKET_RESPONDED",
    name: "Tanggapan tiket",
    description: "Tanggapan operator kepada pengirim tiket.",
    subject: "[TKT:{{replyToken}}] Tanggapan untuk tiket #{{ticketNumber}}: {{ticketSubject}}",
    html: emailLayout({
      heading: "Tiket #{{ticketNumber}} mendapat tanggapan",
      body: `Halo {{submitterName}}, {{responderName}} menanggapi tiket <strong>{{ticketSubject}}</strong>. Status tiket: <strong>{{status}}</strong>.${quote("message")}`,
      action: { label: "Lihat tanggapan", urlVariable: "ticketUrl" },
      note: ticketNote,
    }),
    text: `Halo {{submitterName}},\n\n{{responderName}} menanggapi tiket #{{ticketNumber}} ({{ticketSubject}}). Status: {{status}}.\n\n{{message}}\n\nLihat tanggapan: {{ticketUrl}}\nBalas email ini untuk menanggapi; jangan ubah kode [TKT:{{replyToken}}] pada subjek.${textFooter}`,
    variables: [
      "replyToken",
      "ticketNumber",
      "ticketSubject",
      "submitterName",
      "message",
      "status",
      "ticketUrl",
    ],
    sampleData: {
      replyToken: "3f9a1c2e7b5d4a60",
      ticketNumber: "1024",
      ticketSubject: "Tidak bisa mengunduh laporan kas",
      submitterName: "Budi Santoso",
      responderName: "Tim Dukungan Warga",
      status: "diproses",
      message: "Terima kasih laporannya. Kami sedang memperbaiki fitur unduh laporan.",
      ticketUrl: "https://warga.example/tiket/3f9a1c2e7b5d4a60",
    },
  },
  {
    code: "VISITOR_APPROVED",
    name: "Tamu disetujui",
    description: "Memberi tahu warga bahwa pendaftaran tamunya disetujui.",
    subject: "Kunjungan {{visitorName}} telah disetujui",
    html: emailLayout({
      heading: "Kunjungan tamu disetujui",
      body: "Halo {{name}}, pengurus {{tenantName}} telah menyetujui kunjungan <strong>{{visitorName}}</strong> pada <strong>{{visitDate}}</strong>. Tunjukkan kode QR kepada petugas keamanan saat tamu tiba.",
      action: { label: "Lihat kode QR", urlVariable: "visitUrl" },
    }),
    text: `Halo {{name}},\n\nKunjungan {{visitorName}} pada {{visitDate}} telah disetujui oleh pengurus {{tenantName}}.\nKode QR: {{visitUrl}}${textFooter}`,
    variables: ["name", "visitorName", "visitDate", "visitUrl"],
    sampleData: {
      name: "Budi Santoso",
      tenantName: "RT 05 / RW 02",
      visitorName: "Andi Wijaya",
      visitDate: "Sabtu, 28 November 2026 pukul 10.00 WIB",
      visitUrl: "https://warga.example/tamu/01JD0000000000000000000000",
    },
  },
  {
    code: "ANNOUNCEMENT",
    name: "Pengumuman",
    description: "Pengumuman pengurus yang dikirim juga lewat email.",
    subject: "[{{tenantName}}] {{title}}",
    html: emailLayout({
      heading: "{{title}}",
      body: "Halo {{name}},<br><br>{{body}}",
      action: { label: "Baca selengkapnya", urlVariable: "announcementUrl" },
      note: "Anda menerima email ini sebagai warga {{tenantName}}.",
    }),
    text: `Halo {{name}},\n\n{{title}}\n\n{{body}}\n\nBaca selengkapnya: {{announcementUrl}}${textFooter}`,
    variables: ["tenantName", "title", "body", "announcementUrl"],
    sampleData: {
      name: "Budi Santoso",
      tenantName: "RT 05 / RW 02",
      title: "Kerja bakti Minggu pagi",
      body: "Kerja bakti membersihkan saluran air dimulai Minggu, 29 November pukul 07.00 WIB di pos ronda.",
      announcementUrl: "https://warga.example/pengumuman/01JD0000000000000000000000",
    },
  },
  {
    code: "INVOICE_ISSUED",
    name: "Tagihan langganan terbit",
    description: "Tagihan langganan Warga untuk pengurus (admin) komunitas.",
    subject: "Tagihan {{invoiceNumber}} – langganan {{brandName}} {{tenantName}}",
    html: emailLayout({
      heading: "Tagihan {{invoiceNumber}}",
      body: "Halo {{name}}, tagihan langganan {{brandName}} paket <strong>{{planName}}</strong> untuk {{months}} bulan sebesar <strong>{{amount}}</strong> telah terbit untuk {{tenantName}}. Mohon bayar sebelum <strong>{{dueDate}}</strong>.",
      action: { label: "Bayar tagihan", urlVariable: "paymentUrl" },
      note: "Setelah jatuh tempo ada masa tenggang 14 hari; sesudahnya data tetap dapat dibaca, tetapi tidak dapat diubah sampai tagihan dibayar.",
    }),
    text: `Halo {{name}},\n\nTagihan {{invoiceNumber}}: langganan {{brandName}} paket {{planName}} {{months}} bulan untuk {{tenantName}} sebesar {{amount}}. Jatuh tempo: {{dueDate}}.\nBayar melalui: {{paymentUrl}}${textFooter}`,
    variables: [
      "name",
      "tenantName",
      "invoiceNumber",
      "planName",
      "months",
      "amount",
      "dueDate",
      "paymentUrl",
    ],
    sampleData: {
      name: "Budi Santoso",
      tenantName: "RT 05 / RW 02",
      invoiceNumber: "INV/2026/11/0001",
      planName: "Dasar",
      months: "12",
      amount: "Rp588.000",
      dueDate: "30 November 2026",
      paymentUrl: "https://app.midtrans.com/snap/v4/redirection/contoh",
    },
  },
  {
    code: "INVOICE_REMINDER",
    name: "Pengingat tagihan langganan",
    description: "Pengingat 7 dan 1 hari sebelum tagihan langganan jatuh tempo.",
    subject: "Pengingat: tagihan {{invoiceNumber}} jatuh tempo {{daysLeft}} hari lagi",
    html: emailLayout({
      heading: "Tagihan {{invoiceNumber}} belum dibayar",
      body: "Halo {{name}}, tagihan langganan {{brandName}} untuk {{tenantName}} sebesar <strong>{{amount}}</strong> jatuh tempo <strong>{{dueDate}}</strong> ({{daysLeft}} hari lagi).",
      action: { label: "Bayar tagihan", urlVariable: "paymentUrl" },
      note: "Abaikan pengingat ini jika Anda sudah membayar.",
    }),
    text: `Halo {{name}},\n\nTagihan {{invoiceNumber}} untuk {{tenantName}} sebesar {{amount}} jatuh tempo {{dueDate}} ({{daysLeft}} hari lagi).\nBayar melalui: {{paymentUrl}}${textFooter}`,
    variables: ["name", "tenantName", "invoiceNumber", "amount", "dueDate", "daysLeft", "paymentUrl"],
    sampleData: {
      name: "Budi Santoso",
      tenantName: "RT 05 / RW 02",
      invoiceNumber: "INV/2026/11/0001",
      amount: "Rp588.000",
      dueDate: "30 November 2026",
      daysLeft: "7",
      paymentUrl: "https://app.midtrans.com/snap/v4/redirection/contoh",
    },
  },
  {
    code: "INVOICE_PAID",
    name: "Tagihan langganan lunas",
    description: "Konfirmasi pembayaran tagihan langganan.",
    subject: "Terima kasih: tagihan {{invoiceNumber}} lunas",
    html: emailLayout({
      heading: "Pembayaran diterima",
      body: "Halo {{name}}, pembayaran tagihan <strong>{{invoiceNumber}}</strong> sebesar <strong>{{amount}}</strong> telah kami terima pada {{paidAt}}. Langganan {{brandName}} {{tenantName}} aktif sampai <strong>{{activeUntil}}</strong>.",
    }),
    text: `Halo {{name}},\n\nPembayaran tagihan {{invoiceNumber}} sebesar {{amount}} diterima pada {{paidAt}}. Langganan {{tenantName}} aktif sampai {{activeUntil}}.${textFooter}`,
    variables: ["name", "tenantName", "invoiceNumber", "amount", "paidAt", "activeUntil"],
    sampleData: {
      name: "Budi Santoso",
      tenantName: "RT 05 / RW 02",
      invoiceNumber: "INV/2026/11/0001",
      amount: "Rp588.000",
      paidAt: "20 November 2026",
      activeUntil: "20 November 2027",
    },
  },
];
