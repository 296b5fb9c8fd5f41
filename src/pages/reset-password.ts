/**
 * The spec's reset page (`/reset-password?token=…`), also the landing page of resident invitations.
 * A plain HTML form that works without JavaScript: residents open it from an email or a WhatsApp
 * message on cheap Android phones, and the API's CSP allows no inline scripts anyway.
 */
import type { ErrorCode } from "../core/errors";
import { escapeHtml } from "../core/html";
import { htmlPage } from "./layout";

const PAGE_STYLES = `
    label { display: block; margin-top: 1rem; font-size: 1.05rem; }
    input { width: 100%; box-sizing: border-box; padding: .8rem; font-size: 1.1rem; margin-top: .3rem; }
    button { margin-top: 1.5rem; width: 100%; padding: .9rem; font-size: 1.1rem; background: #0f766e; color: #fff; border: 0; border-radius: .4rem; }
`;

function layout(title: string, body: string): string {
  return htmlPage({ title, body, width: "28rem", styles: PAGE_STYLES });
}

export function resetPasswordForm(token: string, error?: string): string {
  if (!token) {
    return layout(
      "Tautan tidak lengkap",
      `<h1>Tautan tidak lengkap</h1><p class="error">Buka tautan dari email atau pesan WhatsApp Anda sekali lagi, atau minta tautan baru.</p>`,
    );
  }
  return layout(
    "Atur kata sandi",
    `<h1>Atur kata sandi</h1>
<p>Buat kata sandi baru untuk akun Anda. Minimal 8 karakter.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="/reset-password">
  <input type="hidden" name="token" value="${escapeHtml(token)}">
  <label for="password">Kata sandi baru</label>
  <input id="password" name="password" type="password" minlength="8" maxlength="200" required autocomplete="new-password">
  <label for="confirm">Ulangi kata sandi</label>
  <input id="confirm" name="confirm" type="password" minlength="8" maxlength="200" required autocomplete="new-password">
  <button type="submit">Simpan kata sandi</button>
</form>`,
  );
}

export function resetPasswordDone(loginUrl: string): string {
  return layout(
    "Kata sandi tersimpan",
    `<h1>Kata sandi tersimpan</h1>
<p class="ok">Kata sandi Anda sudah diganti. Semua sesi lama sudah keluar.</p>
<p><a href="${escapeHtml(loginUrl)}">Masuk ke akun</a></p>`,
  );
}

/** What the page says for each refusal its form can meet (the problem codes stay English). */
export const RESET_PAGE_MESSAGES: Partial<Record<ErrorCode, string>> = {
  password_too_short: "Kata sandi minimal 8 karakter.",
  token_invalid: "Tautan ini tidak berlaku. Minta tautan baru.",
  token_expired: "Tautan ini sudah kedaluwarsa. Minta tautan baru.",
  token_used: "Tautan ini sudah pernah dipakai. Minta tautan baru.",
  rate_limited: "Terlalu banyak percobaan. Coba lagi beberapa menit lagi.",
};
