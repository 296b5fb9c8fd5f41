/**
 * The login-free ticket page (`/support/reply/:reply_token`): the thread and a reply form with an
 * optional image. A plain multipart form that works without JavaScript: the API's CSP allows no inline
 * scripts, and submitters open it from an email on whatever phone they have.
 */
import type { ErrorCode } from "../core/errors";
import { escapeHtml } from "../core/html";
import { htmlPage } from "./layout";

const STATUS_LABEL: Record<string, string> = {
  baru: "Baru",
  diproses: "Diproses",
  selesai: "Selesai",
};

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

const WHEN = new Intl.DateTimeFormat("id-ID", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "Asia/Jakarta",
});
const when = (iso: string) => `${WHEN.format(new Date(iso))} WIB`;

/** Paragraphs keep the writer's line breaks; every character is escaped first. */
const text = (value: string) => escapeHtml(value).replace(/\r?\n/g, "<br>");

// Image URLs are our own absolute routes; only http(s) ever reaches an attribute.
const image = (url: string) =>
  /^https?:\/\//.test(url)
    ? `<a href="${escapeHtml(url)}"><img src="${escapeHtml(url)}" alt="Lampiran" loading="lazy"></a>`
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

function layout(title: string, body: string): string {
  return htmlPage({ title, body, width: "40rem", styles: PAGE_STYLES });
}

export function supportReplyPage(
  token: string,
  thread: ReplyPageThread,
  notice?: { kind: "ok" | "error"; text: string },
): string {
  const messages = thread.messages
    .map(
      (m) => `<div class="msg ${m.author}">
  <div class="meta"><strong>${escapeHtml(m.author === "operator" ? `${m.author_name} (Tim Dukungan)` : m.author_name)}</strong> · ${when(m.created_at)}</div>
  <p>${text(m.message)}</p>
  ${m.lampiran_urls.map(image).join("")}
</div>`,
    )
    .join("\n");
  const noticeHtml = notice
    ? `<p class="${notice.kind}" role="${notice.kind === "error" ? "alert" : "status"}">${escapeHtml(notice.text)}</p>`
    : "";
  return layout(
    `Tiket #${thread.number}`,
    `<h1>Tiket #${thread.number}: ${escapeHtml(thread.title)}</h1>
<p class="meta">${escapeHtml(thread.category)} · dibuat ${when(thread.created_at)} · <span class="badge">${escapeHtml(STATUS_LABEL[thread.status] ?? thread.status)}</span></p>
<div class="msg"><p>${text(thread.detail)}</p>${thread.attachment_url ? image(thread.attachment_url) : ""}</div>
${messages}
${noticeHtml}
<h2>Balas tiket</h2>
<form method="post" action="/support/reply/${encodeURIComponent(token)}" enctype="multipart/form-data">
  <label for="message">Pesan</label>
  <textarea id="message" name="message" maxlength="5000" required></textarea>
  <label for="file">Gambar (opsional, JPEG/PNG/WebP, maks. 5 MB)</label>
  <input id="file" name="file" type="file" accept="image/jpeg,image/png,image/webp">
  <button type="submit">Kirim balasan</button>
</form>`,
  );
}

export function supportReplyNotFound(): string {
  return layout(
    "Tiket tidak ditemukan",
    `<h1>Tiket tidak ditemukan</h1><p class="error">Tautan ini tidak berlaku. Buka tautan dari email tiket Anda sekali lagi.</p>`,
  );
}

/** What the page says for each refusal its form can meet (the problem codes stay English). */
export const REPLY_PAGE_MESSAGES: Partial<Record<ErrorCode, string>> = {
  file_too_large: "Gambar terlalu besar (maksimal 5 MB).",
  unsupported_image_type: "Hanya gambar JPEG, PNG atau WebP yang dapat dilampirkan.",
  not_multipart: "Formulir tidak lengkap. Muat ulang halaman lalu coba lagi.",
  invalid_multipart: "Formulir tidak lengkap. Muat ulang halaman lalu coba lagi.",
  file_empty: "Berkas gambar kosong.",
  rate_limited: "Terlalu banyak balasan. Coba lagi beberapa menit lagi.",
};
