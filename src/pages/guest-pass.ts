/**
 * The guest's pass (`/tamu/:pass`, issue 42): what the approval email's "Kode QR" link opens, and what
 * the resident forwards to their guest. The QR fills the phone's width so a gate's scanner reads it off
 * the screen; beside it the guest's name, the visit's time, the community and where the pass stands
 * (valid, used, expired, declined). Plain HTML without scripts; Indonesian unless the caller asks for
 * English (`pageLanguage`). The web app takes this path over once it exists.
 */
import { jakartaDateTime } from "../core/format";
import { escapeHtml } from "../core/html";
import type { Language } from "../core/i18n";
import type { GuestPass, PassState } from "../modules/visitor/service";
import { htmlPage } from "./layout";

const PAGE_STYLES = `
    .qr { margin: 1rem auto; max-width: 22rem; background: #fff; padding: .5rem; border: 1px solid #e5e7eb; }
    .qr svg { display: block; width: 100%; height: auto; }
    .code { text-align: center; }
    .code strong { display: block; font-size: 2rem; letter-spacing: .1em; font-family: ui-monospace, monospace; }
    dl { display: grid; grid-template-columns: max-content 1fr; gap: .4rem 1rem; }
    dt { color: #4b5563; }
    dd { margin: 0; font-weight: 600; }
`;

const when = (lang: Language, iso: string) => jakartaDateTime(iso, lang);

const TEXT = {
  id: {
    heading: "Kartu tamu",
    guest: "Nama tamu",
    visit: "Waktu kunjungan",
    community: "Komunitas",
    validity: "Berlaku",
    state: "Status",
    states: {
      valid: "Berlaku: tunjukkan kode QR ini kepada petugas di gerbang.",
      used: "Sudah dipakai: tamu sudah tercatat masuk.",
      expired: "Kedaluwarsa: masa berlaku kartu ini sudah lewat.",
      declined: "Ditolak: kunjungan ini tidak disetujui atau sudah dibatalkan.",
    } satisfies Record<PassState, string>,
    stateShort: { valid: "Berlaku", used: "Sudah dipakai", expired: "Kedaluwarsa", declined: "Ditolak" },
    until: "s.d.",
    qrAlt: "Kode QR kartu tamu",
    code: "Jika kode QR tidak terbaca, sebutkan kode ini kepada petugas:",
    notFound: "Kartu tamu tidak ditemukan",
    notFoundNote:
      "Tautan ini tidak cocok dengan kartu tamu mana pun. Minta tautan yang baru kepada warga yang mengundang Anda.",
    unavailable: "Kartu tamu tidak tersedia",
    unavailableNote: "Buku tamu komunitas ini sedang tidak aktif. Hubungi warga yang mengundang Anda.",
  },
  en: {
    heading: "Guest pass",
    guest: "Guest",
    visit: "Visit",
    community: "Community",
    validity: "Valid",
    state: "Status",
    states: {
      valid: "Valid: show this QR code to the guard at the gate.",
      used: "Used: the guest has already checked in.",
      expired: "Expired: this pass is past its validity.",
      declined: "Declined: this visit was not approved or has been cancelled.",
    } satisfies Record<PassState, string>,
    stateShort: { valid: "Valid", used: "Used", expired: "Expired", declined: "Declined" },
    until: "to",
    qrAlt: "Guest pass QR code",
    code: "If the QR code will not scan, tell the guard this code:",
    notFound: "Guest pass not found",
    notFoundNote: "This link matches no guest pass. Ask the resident who invited you for a new link.",
    unavailable: "Guest pass unavailable",
    unavailableNote: "This community's guest book is not active. Contact the resident who invited you.",
  },
} as const;

export function guestPassPage(pass: GuestPass, lang: Language): string {
  const t = TEXT[lang];
  const tone = pass.state === "valid" ? "ok" : "bad";
  const qr = pass.qrSvg ? `<div class="qr" role="img" aria-label="${t.qrAlt}">${pass.qrSvg}</div>` : "";
  const code = pass.code ? `<p class="code">${t.code} <strong>${escapeHtml(pass.code)}</strong></p>` : "";
  return htmlPage({
    title: `${t.heading}: ${t.stateShort[pass.state]}`,
    width: "30rem",
    styles: PAGE_STYLES,
    lang,
    body: `<h1>${t.heading}</h1>
<p class="${tone}" role="status" data-state="${pass.state}">${t.states[pass.state]}</p>
${qr}
${code}
<dl>
  <dt>${t.guest}</dt><dd>${escapeHtml(pass.guestName)}</dd>
  <dt>${t.visit}</dt><dd>${escapeHtml(when(lang, pass.visitAt))}</dd>
  <dt>${t.community}</dt><dd>${escapeHtml(pass.tenantName)}</dd>
  <dt>${t.validity}</dt><dd>${escapeHtml(when(lang, pass.validFrom))} ${t.until} ${escapeHtml(when(lang, pass.validUntil))}</dd>
  <dt>${t.state}</dt><dd>${t.stateShort[pass.state]}</dd>
</dl>`,
  });
}

export function guestPassNotFound(lang: Language): string {
  const t = TEXT[lang];
  return htmlPage({
    title: t.notFound,
    lang,
    body: `<h1>${t.heading}</h1>\n<p class="bad" role="alert">${t.notFoundNote}</p>`,
  });
}

/** The community cannot answer for its passes now (closed, suspended, or its guest book switched off). */
export function guestPassUnavailable(lang: Language): string {
  const t = TEXT[lang];
  return htmlPage({
    title: t.unavailable,
    lang,
    body: `<h1>${t.heading}</h1>\n<p class="bad" role="alert">${t.unavailableNote}</p>`,
  });
}
