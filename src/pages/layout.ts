import type { Context } from "hono";
import type { RouteEnv } from "../core/env";
import { escapeHtml } from "../core/html";
import { type Language, pickLanguage } from "../core/i18n";

/**
 * The language of a page (issue 30 item 3, issue 42): Indonesian, as the emails that link to the pages
 * are; English only when the caller asks, by `?lang=en` (a link can carry it) or by an
 * `Accept-Language` that puts English before Indonesian. `?lang=id` asks for Indonesian whatever the
 * header says. Said in `Content-Language`; `Vary` keeps a cache from handing one language to the other.
 */
export function pageLanguage(c: Context<RouteEnv>): Language {
  const asked = c.req.query("lang");
  const lang = asked === "en" || asked === "id" ? asked : pickLanguage(c.req.header("Accept-Language"), "id");
  c.header("Content-Language", lang);
  c.header("Vary", "Accept-Language");
  return lang;
}

/**
 * What a page's own links and form actions append so the next page keeps the language the caller chose:
 * `?lang=en` for English, nothing for Indonesian (the default).
 */
export function langQuery(lang: Language, joiner: "?" | "&" = "?"): string {
  return lang === "en" ? `${joiner}lang=en` : "";
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
