import { escapeHtml } from "../core/html";

/**
 * The frame of the few pages the API serves (password reset, ticket reply, letter verification):
 * plain HTML that works without JavaScript (the CSP allows no inline scripts), readable on small
 * phones, never indexed, never leaking its URL (which may carry a token) as a referrer.
 */
export function htmlPage(opts: { title: string; body: string; width?: string; styles?: string }): string {
  return `<!doctype html>
<html lang="id">
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
