/**
 * The public page a letter's QR code opens (`/verify/surat/:code`). It confirms the number, type,
 * date and community, the signatories (the RT's and, once given, the RW's Mengetahui), and that the
 * letter is valid; of the subject's personal data it shows only the name. Plain
 * HTML without scripts: the API's CSP allows none, and it opens on any phone's camera app.
 */
import { escapeHtml } from "../core/html";
import { htmlPage } from "./layout";

const PAGE_STYLES = `
    dl { display: grid; grid-template-columns: max-content 1fr; gap: .4rem 1rem; }
    dt { color: #4b5563; }
    dd { margin: 0; font-weight: 600; }
`;

function layout(title: string, body: string): string {
  return htmlPage({ title, body, width: "30rem", styles: PAGE_STYLES });
}

export interface VerifiedLetter {
  tenantName: string;
  nomorSurat: string;
  jenisName: string;
  tanggalSurat: string;
  subjectName: string;
  /** Who signed it for the community (the letter's letterhead, kept when it was finished). */
  signatory: { name: string; title: string };
  /** The linked RW's Mengetahui: given, awaited, or none asked (null). */
  rw: { status: "diketahui"; name: string; title: string; tanggal: string } | { status: "menunggu" } | null;
}

function rwRow(rw: VerifiedLetter["rw"]): string {
  if (!rw) {
    return "";
  }
  if (rw.status === "menunggu") {
    return `
  <dt>Mengetahui</dt><dd>Menunggu diketahui Ketua RW</dd>`;
  }
  return `
  <dt>Mengetahui</dt><dd>${escapeHtml(rw.title)}: ${escapeHtml(rw.name)} (${escapeHtml(rw.tanggal)})</dd>`;
}

export function verifiedLetterPage(letter: VerifiedLetter): string {
  return layout(
    "Surat sah",
    `<h1>Verifikasi surat</h1>
<p class="ok" role="status"><strong>Surat ini sah (valid)</strong> dan tercatat di ${escapeHtml(letter.tenantName)}.</p>
<dl>
  <dt>Nomor surat</dt><dd>${escapeHtml(letter.nomorSurat)}</dd>
  <dt>Jenis surat</dt><dd>${escapeHtml(letter.jenisName)}</dd>
  <dt>Tanggal surat</dt><dd>${escapeHtml(letter.tanggalSurat)}</dd>
  <dt>Atas nama</dt><dd>${escapeHtml(letter.subjectName)}</dd>
  <dt>Diterbitkan oleh</dt><dd>${escapeHtml(letter.tenantName)}</dd>
  <dt>Ditandatangani</dt><dd>${escapeHtml(letter.signatory.title)}: ${escapeHtml(letter.signatory.name)}</dd>${rwRow(letter.rw)}
</dl>
<p>Pastikan isi surat yang Anda pegang sama dengan data di atas.</p>`,
  );
}

export function unknownLetterPage(): string {
  return layout(
    "Surat tidak ditemukan",
    `<h1>Verifikasi surat</h1>
<p class="bad" role="alert"><strong>Surat tidak ditemukan.</strong> Kode verifikasi ini tidak cocok dengan surat mana pun yang sah. Hubungi pengurus RT yang tercantum pada surat.</p>`,
  );
}

/** The community behind the code cannot answer now (suspended, or its letters are switched off). */
export function letterUnavailablePage(): string {
  return layout(
    "Verifikasi tidak tersedia",
    `<h1>Verifikasi surat</h1>
<p class="bad" role="alert"><strong>Verifikasi tidak dapat dilakukan saat ini.</strong> Layanan surat komunitas ini sedang tidak aktif. Hubungi pengurus RT yang tercantum pada surat.</p>`,
  );
}
