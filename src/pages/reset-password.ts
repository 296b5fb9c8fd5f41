/**
 * The spec's reset page (`/reset-password?token=…`), also the landing page of resident invitations.
 * A plain HTML form that works without JavaScript: residents open it from an email or a WhatsApp
 * message on cheap Android phones, and the API's CSP allows no inline scripts anyway. Indonesian or
 * English by the browser's Accept-Language (`pageLanguage`); the texts of both live here.
 */
import type { ErrorCode } from "../core/errors";
import { escapeHtml } from "../core/html";
import type { Language } from "../core/i18n";
import { htmlPage, langQuery } from "./layout";

const PAGE_STYLES = `
    label { display: block; margin-top: 1rem; font-size: 1.05rem; }
    input { width: 100%; box-sizing: border-box; padding: .8rem; font-size: 1.1rem; margin-top: .3rem; }
    button { margin-top: 1.5rem; width: 100%; padding: .9rem; font-size: 1.1rem; background: #0f766e; color: #fff; border: 0; border-radius: .4rem; }
`;

const TEXT = {
  id: {
    incomplete: "Tautan tidak lengkap",
    incompleteHint: "Buka tautan dari email atau pesan WhatsApp Anda sekali lagi, atau minta tautan baru.",
    title: "Atur kata sandi",
    intro: "Buat kata sandi baru untuk akun Anda. Minimal 8 karakter.",
    password: "Kata sandi baru",
    confirm: "Ulangi kata sandi",
    save: "Simpan kata sandi",
    done: "Kata sandi tersimpan",
    doneHint: "Kata sandi Anda sudah diganti. Semua sesi lama sudah keluar.",
    signIn: "Masuk ke akun",
  },
  en: {
    incomplete: "Incomplete link",
    incompleteHint: "Open the link from your email or WhatsApp message again, or ask for a new link.",
    title: "Set your password",
    intro: "Choose a new password for your account. At least 8 characters.",
    password: "New password",
    confirm: "Repeat the password",
    save: "Save password",
    done: "Password saved",
    doneHint: "Your password has been changed. Every earlier session has been signed out.",
    signIn: "Sign in",
  },
} as const satisfies Record<Language, Record<string, string>>;

function layout(lang: Language, title: string, body: string): string {
  return htmlPage({ title, body, width: "28rem", styles: PAGE_STYLES, lang });
}

export function resetPasswordForm(token: string, lang: Language, error?: string): string {
  const t = TEXT[lang];
  if (!token) {
    return layout(lang, t.incomplete, `<h1>${t.incomplete}</h1><p class="error">${t.incompleteHint}</p>`);
  }
  return layout(
    lang,
    t.title,
    `<h1>${t.title}</h1>
<p>${t.intro}</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="/reset-password${langQuery(lang)}">
  <input type="hidden" name="token" value="${escapeHtml(token)}">
  <label for="password">${t.password}</label>
  <input id="password" name="password" type="password" minlength="8" maxlength="200" required autocomplete="new-password">
  <label for="confirm">${t.confirm}</label>
  <input id="confirm" name="confirm" type="password" minlength="8" maxlength="200" required autocomplete="new-password">
  <button type="submit">${t.save}</button>
</form>`,
  );
}

export function resetPasswordDone(loginUrl: string, lang: Language): string {
  const t = TEXT[lang];
  return layout(
    lang,
    t.done,
    `<h1>${t.done}</h1>
<p class="ok">${t.doneHint}</p>
<p><a href="${escapeHtml(loginUrl)}">${t.signIn}</a></p>`,
  );
}

/** What the page says for each refusal its form can meet (the problem codes stay English). */
export const RESET_PAGE_MESSAGES: Record<
  Language,
  Partial<Record<ErrorCode | "password_mismatch", string>>
> = {
  id: {
    password_mismatch: "Kedua kata sandi tidak sama.",
    password_too_short: "Kata sandi minimal 8 karakter.",
    token_invalid: "Tautan ini tidak berlaku. Minta tautan baru.",
    token_expired: "Tautan ini sudah kedaluwarsa. Minta tautan baru.",
    token_used: "Tautan ini sudah pernah dipakai. Minta tautan baru.",
    rate_limited: "Terlalu banyak percobaan. Coba lagi beberapa menit lagi.",
  },
  en: {
    password_mismatch: "The two passwords are not the same.",
    password_too_short: "The password needs at least 8 characters.",
    token_invalid: "This link is not valid. Ask for a new link.",
    token_expired: "This link has expired. Ask for a new link.",
    token_used: "This link has been used already. Ask for a new link.",
    rate_limited: "Too many attempts. Try again in a few minutes.",
  },
};
