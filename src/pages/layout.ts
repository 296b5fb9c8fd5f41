import type { Context } from "hono";
import type { HonoEnv } from "../core/env";
import { escapeHtml } from "../core/html";
import { type Language, pickLanguage } from "../core/i18n";

/**
 * The language of a page (issue 30 item 3): Indonesian when `Accept-Language` asks for it, English
 * otherwise, said in `Content-Language`; `Vary` keeps a cache from handing one language to the other.
 */
export function pageLanguage(c: Context<HonoEnv>): Language {
  const lang = pickLanguage(c.req.header("Accept-Language"));
  c.header("Content-Language", lang);
  c.header("Vary", "Accept-Language");
  return lang;
}

/**
 * The frame of the few pages the API serves (password reset, ticket reply, letter verification):
 * plain HTML that works without JavaScript (the CSP allows no inline scripts), readable on small
 * phones, never indexed, never leaking its URL (which may carry a token) as a referrer.
 */
export function htmlPage(opts: {
  title: string;
  body: string;
  width?: string;
  styles?: string;
  lang?: Language;
}): string {
  return `<!doctype html>
<html lang="${opts.lang ?? "id"}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <meta name="robots" content="noindex">
  <title>${escapeHtml(opts.title)}</title>
  <style>
    body { font-family: system-ui, sans-serif; max-width: ${opts.width ?? "30rem"}; margin: 2rem auto; padding: 0 1rem; color: #111827; }
    h1 { font-size: 1.4rem; color: #0f766e; }
    .ok { background: #f0fdf4; border-left: 4px solid #15803d; padding: .8rem; margin-top: 1rem; }
    .error, .bad { background: #fef2f2; border-left: 4px solid #b91c1c; padding: .8rem; margin-top: 1rem; }
${opts.styles ?? ""}
  </style>
</head>
<body>
${opts.body}
</body>
</html>`;
}
