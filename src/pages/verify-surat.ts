/**
 * The public page a letter's QR code opens (`/verify/surat/:code`). It confirms the number, type,
 * date and community, the signatories (the RT's and, once given, the RW's Mengetahui), and that the
 * letter is valid; of the subject's personal data it shows only the name. A closed community's letter
 * says that the community has closed, and until when the letter stays on record. Plain
 * HTML without scripts: the API's CSP allows none, and it opens on any phone's camera app. Indonesian,
 * or English when the caller asks (`pageLanguage`); the letter's own words (its type, the
 * signatory's title) stay as written.
 */
import { escapeHtml } from "../core/html";
import type { Language } from "../core/i18n";
import { htmlPage } from "./layout";

const PAGE_STYLES = `
    dl { display: grid; grid-template-columns: max-content 1fr; gap: .4rem 1rem; }
    dt { color: #4b5563; }
    dd { margin: 0; font-weight: 600; }
    .closed { background: #fffbeb; border-left: 4px solid #b45309; padding: .8rem; }
`;

const TEXT = {
  id: {
    heading: "Verifikasi surat",
    valid: "Surat sah",
    validNote: (tenant: string) => `<strong>Surat ini sah (valid)</strong> dan tercatat di ${tenant}.`,
    number: "Nomor surat",
    type: "Jenis surat",
    date: "Tanggal surat",
    subject: "Atas nama",
    issuer: "Diterbitkan oleh",
    signed: "Ditandatangani",
    acknowledged: "Mengetahui",
    awaiting: "Menunggu diketahui Ketua RW",
    compare: "Pastikan isi surat yang Anda pegang sama dengan data di atas.",
    closed: (tenant: string, until: string) =>
      `${tenant} sudah ditutup dan tidak lagi memakai layanan ini. Surat ini diterbitkan sebelum penutupan dan tetap tercatat sah sampai ${until}.`,
    unknown: "Surat tidak ditemukan",
    unknownNote:
      "<strong>Surat tidak ditemukan.</strong> Kode verifikasi ini tidak cocok dengan surat mana pun yang sah. Hubungi pengurus RT yang tercantum pada surat.",
    unavailable: "Verifikasi tidak tersedia",
    unavailableNote:
      "<strong>Verifikasi tidak dapat dilakukan saat ini.</strong> Layanan surat komunitas ini sedang tidak aktif. Hubungi pengurus RT yang tercantum pada surat.",
  },
  en: {
    heading: "Letter verification",
    valid: "Valid letter",
    validNote: (tenant: string) => `<strong>This letter is valid</strong> and on record at ${tenant}.`,
    number: "Letter number",
    type: "Letter type",
    date: "Letter date",
    subject: "Issued for",
    issuer: "Issued by",
    signed: "Signed by",
    acknowledged: "Acknowledged",
    awaiting: "Awaiting the RW head's acknowledgement",
    compare: "Make sure the letter you hold matches the details above.",
    closed: (tenant: string, until: string) =>
      `${tenant} has closed and no longer uses this service. This letter was issued before it closed and stays on record as valid until ${until}.`,
    unknown: "Letter not found",
    unknownNote:
      "<strong>Letter not found.</strong> This verification code matches no valid letter. Contact the RT officers named on the letter.",
    unavailable: "Verification unavailable",
    unavailableNote:
      "<strong>The letter cannot be verified right now.</strong> This community's letter service is not active. Contact the RT officers named on the letter.",
  },
} as const;

function layout(lang: Language, title: string, body: string): string {
  return htmlPage({ title, body, width: "30rem", styles: PAGE_STYLES, lang });
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
  /** The community has closed: the letter is vouched for from the platform's copy, until this day. */
  closed?: { validUntil: string };
}

function rwRow(lang: Language, rw: VerifiedLetter["rw"]): string {
  const t = TEXT[lang];
  if (!rw) {
    return "";
  }
  if (rw.status === "menunggu") {
    return `
  <dt>${t.acknowledged}</dt><dd>${t.awaiting}</dd>`;
  }
  return `
  <dt>${t.acknowledged}</dt><dd>${escapeHtml(rw.title)}: ${escapeHtml(rw.name)} (${escapeHtml(rw.tanggal)})</dd>`;
}

export function verifiedLetterPage(letter: VerifiedLetter, lang: Language): string {
  const t = TEXT[lang];
  return layout(
    lang,
    t.valid,
    `<h1>${t.heading}</h1>
<p class="ok" role="status">${t.validNote(escapeHtml(letter.tenantName))}</p>${
      letter.closed
        ? `\n<p class="closed" role="note">${escapeHtml(t.closed(letter.tenantName, letter.closed.validUntil))}</p>`
        : ""
    }
<dl>
  <dt>${t.number}</dt><dd>${escapeHtml(letter.nomorSurat)}</dd>
  <dt>${t.type}</dt><dd>${escapeHtml(letter.jenisName)}</dd>
  <dt>${t.date}</dt><dd>${escapeHtml(letter.tanggalSurat)}</dd>
  <dt>${t.subject}</dt><dd>${escapeHtml(letter.subjectName)}</dd>
  <dt>${t.issuer}</dt><dd>${escapeHtml(letter.tenantName)}</dd>
  <dt>${t.signed}</dt><dd>${escapeHtml(letter.signatory.title)}: ${escapeHtml(letter.signatory.name)}</dd>${rwRow(lang, letter.rw)}
</dl>
<p>${t.compare}</p>`,
  );
}

export function unknownLetterPage(lang: Language): string {
  const t = TEXT[lang];
  return layout(lang, t.unknown, `<h1>${t.heading}</h1>\n<p class="bad" role="alert">${t.unknownNote}</p>`);
}

/** The community behind the code cannot answer now (suspended, or its letters are switched off). */
export function letterUnavailablePage(lang: Language): string {
  const t = TEXT[lang];
  return layout(
    lang,
    t.unavailable,
    `<h1>${t.heading}</h1>\n<p class="bad" role="alert">${t.unavailableNote}</p>`,
  );
}
