/**
 * The login-free ticket page (`/support/reply/:reply_token`): the thread and a reply form with an
 * optional image. A plain multipart form that works without JavaScript: the API's CSP allows no inline
 * scripts, and submitters open it from an email on whatever phone they have. Indonesian or English by
 * the browser's Accept-Language (`pageLanguage`); the ticket's own words stay as written.
 */
import type { ErrorCode } from "../core/errors";
import { escapeHtml } from "../core/html";
import type { Language } from "../core/i18n";
import { htmlPage, langQuery } from "./layout";

const TEXT = {
  id: {
    status: { baru: "Baru", diproses: "Diproses", selesai: "Selesai" } as Record<string, string>,
    ticket: "Tiket",
    created: "dibuat",
    support: "Tim Dukungan",
    attachment: "Lampiran",
    reply: "Balas tiket",
    message: "Pesan",
    image: "Gambar (opsional, JPEG/PNG/WebP, maks. 5 MB)",
    send: "Kirim balasan",
    notFound: "Tiket tidak ditemukan",
    notFoundHint: "Tautan ini tidak berlaku. Buka tautan dari email tiket Anda sekali lagi.",
    sent: "Balasan Anda sudah terkirim.",
    empty: "Tulis pesan balasan Anda.",
    locale: "id-ID",
  },
  en: {
    status: { baru: "New", diproses: "In progress", selesai: "Resolved" } as Record<string, string>,
    ticket: "Ticket",
    created: "opened",
    support: "Support team",
    attachment: "Attachment",
    reply: "Reply to this ticket",
    message: "Message",
    image: "Image (optional, JPEG/PNG/WebP, up to 5 MB)",
    send: "Send reply",
    notFound: "Ticket not found",
    notFoundHint: "This link is not valid. Open the link from your ticket email again.",
    sent: "Your reply has been sent.",
    empty: "Write your reply.",
    locale: "en-GB",
  },
} as const;

/** What the page says besides the thread, in `lang` (the routes' own notices too). */
export const replyPageText = (lang: Language) => TEXT[lang];

export interface ReplyPageThread {
  number: number;
  title: string;
  category: string;
  detail: string;
  status: string;
  attachment_url: string | null;
  created_at: string;
  messages: {
    author: "submitter" | "operator";
    author_name: string;
    message: string;
    lampiran_urls: string[];
    created_at: string;
  }[];
}

const WHEN = {
  id: new Intl.DateTimeFormat(TEXT.id.locale, {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "Asia/Jakarta",
  }),
  en: new Intl.DateTimeFormat(TEXT.en.locale, {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "Asia/Jakarta",
  }),
};
const when = (lang: Language, iso: string) => `${WHEN[lang].format(new Date(iso))} WIB`;

/** Paragraphs keep the writer's line breaks; every character is escaped first. */
const text = (value: string) => escapeHtml(value).replace(/\r?\n/g, "<br>");

// Image URLs are our own absolute routes; only http(s) ever reaches an attribute.
const image = (lang: Language, url: string) =>
  /^https?:\/\//.test(url)
    ? `<a href="${escapeHtml(url)}"><img src="${escapeHtml(url)}" alt="${TEXT[lang].attachment}" loading="lazy"></a>`
    : "";

const PAGE_STYLES = `
    .meta { color: #4b5563; font-size: .95rem; }
    .badge { display: inline-block; padding: .1rem .6rem; border-radius: 1rem; background: #e0f2f1; color: #0f766e; font-weight: 600; }
    .msg { border-left: 4px solid #d1d5db; padding: .6rem .9rem; margin: 1rem 0; background: #f9fafb; }
    .msg.operator { border-color: #0f766e; background: #f0fdfa; }
    .msg img { max-width: 100%; max-height: 20rem; margin-top: .5rem; display: block; }
    label { display: block; margin-top: 1rem; font-size: 1.05rem; }
    textarea, input[type=file] { width: 100%; box-sizing: border-box; padding: .6rem; font-size: 1.05rem; margin-top: .3rem; }
    textarea { min-height: 8rem; }
    button { margin-top: 1.2rem; width: 100%; padding: .9rem; font-size: 1.1rem; background: #0f766e; color: #fff; border: 0; border-radius: .4rem; }
`;

function layout(lang: Language, title: string, body: string): string {
  return htmlPage({ title, body, width: "40rem", styles: PAGE_STYLES, lang });
}

export function supportReplyPage(
  token: string,
  thread: ReplyPageThread,
  lang: Language,
  notice?: { kind: "ok" | "error"; text: string },
): string {
  const t = TEXT[lang];
  const messages = thread.messages
    .map(
      (m) => `<div class="msg ${m.author}">
  <div class="meta"><strong>${escapeHtml(m.author === "operator" ? `${m.author_name} (${t.support})` : m.author_name)}</strong> · ${when(lang, m.created_at)}</div>
  <p>${text(m.message)}</p>
  ${m.lampiran_urls.map((url) => image(lang, url)).join("")}
</div>`,
    )
    .join("\n");
  const noticeHtml = notice
    ? `<p class="${notice.kind}" role="${notice.kind === "error" ? "alert" : "status"}">${escapeHtml(notice.text)}</p>`
    : "";
  return layout(
    lang,
    `${t.ticket} #${thread.number}`,
    `<h1>${t.ticket} #${thread.number}: ${escapeHtml(thread.title)}</h1>
<p class="meta">${escapeHtml(thread.category)} · ${t.created} ${when(lang, thread.created_at)} · <span class="badge">${escapeHtml(t.status[thread.status] ?? thread.status)}</span></p>
<div class="msg"><p>${text(thread.detail)}</p>${thread.attachment_url ? image(lang, thread.attachment_url) : ""}</div>
${messages}
${noticeHtml}
<h2>${t.reply}</h2>
<form method="post" action="/support/reply/${encodeURIComponent(token)}${langQuery(lang)}" enctype="multipart/form-data">
  <label for="message">${t.message}</label>
  <textarea id="message" name="message" maxlength="5000" required></textarea>
  <label for="file">${t.image}</label>
  <input id="file" name="file" type="file" accept="image/jpeg,image/png,image/webp">
  <button type="submit">${t.send}</button>
</form>`,
  );
}

export function supportReplyNotFound(lang: Language): string {
  const t = TEXT[lang];
  return layout(lang, t.notFound, `<h1>${t.notFound}</h1><p class="error">${t.notFoundHint}</p>`);
}

/** What the page says for each refusal its form can meet (the problem codes stay English). */
export const REPLY_PAGE_MESSAGES: Record<Language, Partial<Record<ErrorCode, string>>> = {
  id: {
    file_too_large: "Gambar terlalu besar (maksimal 5 MB).",
    unsupported_image_type: "Hanya gambar JPEG, PNG atau WebP yang dapat dilampirkan.",
    not_multipart: "Formulir tidak lengkap. Muat ulang halaman lalu coba lagi.",
    invalid_multipart: "Formulir tidak lengkap. Muat ulang halaman lalu coba lagi.",
    file_empty: "Berkas gambar kosong.",
    rate_limited: "Terlalu banyak balasan. Coba lagi beberapa menit lagi.",
  },
  en: {
    file_too_large: "The image is too large (at most 5 MB).",
    unsupported_image_type: "Only JPEG, PNG or WebP images can be attached.",
    not_multipart: "The form is incomplete. Reload the page and try again.",
    invalid_multipart: "The form is incomplete. Reload the page and try again.",
    file_empty: "The image file is empty.",
    rate_limited: "Too many replies. Try again in a few minutes.",
  },
};
