// The branded shell every seeded template uses: logo, a content card and an optional action button.
// Table layout and inline styles because many mail clients ignore <style> and flexbox.

export interface LayoutParts {
  heading: string;
  body: string;
  action?: { label: string; urlVariable: string };
  note?: string;
}

export function emailLayout(parts: LayoutParts): string {
  const button = parts.action
    ? `<tr><td align="center" style="padding:8px 0 24px">` +
      `<a href="{{${parts.action.urlVariable}}}" style="display:inline-block;background:#0f766e;color:#ffffff;` +
      `text-decoration:none;font-weight:600;padding:12px 24px;border-radius:6px">${parts.action.label}</a>` +
      `</td></tr>`
    : "";
  const note = parts.note
    ? `<tr><td style="padding:0 0 8px;color:#6b7280;font-size:13px;line-height:20px">${parts.note}</td></tr>`
    : "";
  return `<!doctype html>
<html lang="id">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>{{brandName}}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6;font-family:Arial,Helvetica,sans-serif;color:#111827">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6;padding:24px 0">
<tr><td align="center">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;width:100%">
<tr><td align="center" style="padding:8px 0 16px"><img src="{{logoUrl}}" alt="{{brandName}}" height="40" style="height:40px;border:0"></td></tr>
<tr><td style="background:#ffffff;border-radius:8px;padding:32px;border:1px solid #e5e7eb">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0">
<tr><td style="font-size:20px;font-weight:700;padding:0 0 16px">${parts.heading}</td></tr>
<tr><td style="font-size:15px;line-height:24px;padding:0 0 16px">${parts.body}</td></tr>
${button}${note}
</table>
</td></tr>
<tr><td align="center" style="padding:16px;color:#9ca3af;font-size:12px">&copy; {{year}} {{brandName}}. Email ini dikirim otomatis, mohon tidak membalas kecuali diminta.</td></tr>
</table>
</td></tr>
</table>
</body>
</html>`;
}
