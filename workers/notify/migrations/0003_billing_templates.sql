-- The subscription billing templates (issue 15), in the form workers/notify/scripts/seed-sql.ts writes.
INSERT INTO `templates` (`code`, `locale`, `name`, `description`, `subject`, `html`, `text`, `variables`, `sample_data`, `version`, `created_at`, `updated_at`) VALUES ('INVOICE_ISSUED', 'id', 'Tagihan langganan terbit', 'Tagihan langganan Warga untuk pengurus (admin) komunitas.', 'Tagihan {{invoiceNumber}} – langganan {{brandName}} {{tenantName}}', '<!doctype html>
<html lang="id">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>{{brandName}}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6;font-family:Arial,Helvetica,sans-serif;color:#111827">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6;padding:24px 0">
<tr><td align="center">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;width:100%">
<tr><td align="center" style="padding:8px 0 16px"><img src="{{logoUrl}}" alt="{{brandName}}" height="40" style="height:40px;border:0"></td></tr>
<tr><td style="background:#ffffff;border-radius:8px;padding:32px;border:1px solid #e5e7eb">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0">
<tr><td style="font-size:20px;font-weight:700;padding:0 0 16px">Tagihan {{invoiceNumber}}</td></tr>
<tr><td style="font-size:15px;line-height:24px;padding:0 0 16px">Halo {{name}}, tagihan langganan {{brandName}} paket <strong>{{planName}}</strong> untuk {{months}} bulan sebesar <strong>{{amount}}</strong> telah terbit untuk {{tenantName}}. Mohon bayar sebelum <strong>{{dueDate}}</strong>.</td></tr>
<tr><td align="center" style="padding:8px 0 24px"><a href="{{paymentUrl}}" style="display:inline-block;background:#0f766e;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 24px;border-radius:6px">Bayar tagihan</a></td></tr><tr><td style="padding:0 0 8px;color:#6b7280;font-size:13px;line-height:20px">Setelah jatuh tempo ada masa tenggang 14 hari; sesudahnya data tetap dapat dibaca, tetapi tidak dapat diubah sampai tagihan dibayar.</td></tr>
</table>
</td></tr>
<tr><td align="center" style="padding:16px;color:#9ca3af;font-size:12px">&copy; {{year}} {{brandName}}. Email ini dikirim otomatis, mohon tidak membalas kecuali diminta.</td></tr>
</table>
</td></tr>
</table>
</body>
</html>', 'Halo {{name}},

Tagihan {{invoiceNumber}}: langganan {{brandName}} paket {{planName}} {{months}} bulan untuk {{tenantName}} sebesar {{amount}}. Jatuh tempo: {{dueDate}}.
Bayar melalui: {{paymentUrl}}

--
{{brandName}}', '["name","tenantName","invoiceNumber","planName","months","amount","dueDate","paymentUrl"]', '{"name":"Budi Santoso","tenantName":"RT 05 / RW 02","invoiceNumber":"INV/2026/11/0001","planName":"Dasar","months":"12","amount":"Rp588.000","dueDate":"30 November 2026","paymentUrl":"https://app.midtrans.com/snap/v4/redirection/contoh"}', 1, '2026-11-23T00:00:00.000Z', '2026-11-23T00:00:00.000Z') ON CONFLICT(`code`, `locale`) DO NOTHING;
--> statement-breakpoint
INSERT INTO `templates` (`code`, `locale`, `name`, `description`, `subject`, `html`, `text`, `variables`, `sample_data`, `version`, `created_at`, `updated_at`) VALUES ('INVOICE_REMINDER', 'id', 'Pengingat tagihan langganan', 'Pengingat 7 dan 1 hari sebelum tagihan langganan jatuh tempo.', 'Pengingat: tagihan {{invoiceNumber}} jatuh tempo {{daysLeft}} hari lagi', '<!doctype html>
<html lang="id">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>{{brandName}}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6;font-family:Arial,Helvetica,sans-serif;color:#111827">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6;padding:24px 0">
<tr><td align="center">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;width:100%">
<tr><td align="center" style="padding:8px 0 16px"><img src="{{logoUrl}}" alt="{{brandName}}" height="40" style="height:40px;border:0"></td></tr>
<tr><td style="background:#ffffff;border-radius:8px;padding:32px;border:1px solid #e5e7eb">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0">
<tr><td style="font-size:20px;font-weight:700;padding:0 0 16px">Tagihan {{invoiceNumber}} belum dibayar</td></tr>
<tr><td style="font-size:15px;line-height:24px;padding:0 0 16px">Halo {{name}}, tagihan langganan {{brandName}} untuk {{tenantName}} sebesar <strong>{{amount}}</strong> jatuh tempo <strong>{{dueDate}}</strong> ({{daysLeft}} hari lagi).</td></tr>
<tr><td align="center" style="padding:8px 0 24px"><a href="{{paymentUrl}}" style="display:inline-block;background:#0f766e;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 24px;border-radius:6px">Bayar tagihan</a></td></tr><tr><td style="padding:0 0 8px;color:#6b7280;font-size:13px;line-height:20px">Abaikan pengingat ini jika Anda sudah membayar.</td></tr>
</table>
</td></tr>
<tr><td align="center" style="padding:16px;color:#9ca3af;font-size:12px">&copy; {{year}} {{brandName}}. Email ini dikirim otomatis, mohon tidak membalas kecuali diminta.</td></tr>
</table>
</td></tr>
</table>
</body>
</html>', 'Halo {{name}},

Tagihan {{invoiceNumber}} untuk {{tenantName}} sebesar {{amount}} jatuh tempo {{dueDate}} ({{daysLeft}} hari lagi).
Bayar melalui: {{paymentUrl}}

--
{{brandName}}', '["name","tenantName","invoiceNumber","amount","dueDate","daysLeft","paymentUrl"]', '{"name":"Budi Santoso","tenantName":"RT 05 / RW 02","invoiceNumber":"INV/2026/11/0001","amount":"Rp588.000","dueDate":"30 November 2026","daysLeft":"7","paymentUrl":"https://app.midtrans.com/snap/v4/redirection/contoh"}', 1, '2026-11-23T00:00:00.000Z', '2026-11-23T00:00:00.000Z') ON CONFLICT(`code`, `locale`) DO NOTHING;
--> statement-breakpoint
INSERT INTO `templates` (`code`, `locale`, `name`, `description`, `subject`, `html`, `text`, `variables`, `sample_data`, `version`, `created_at`, `updated_at`) VALUES ('INVOICE_PAID', 'id', 'Tagihan langganan lunas', 'Konfirmasi pembayaran tagihan langganan.', 'Terima kasih: tagihan {{invoiceNumber}} lunas', '<!doctype html>
<html lang="id">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>{{brandName}}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6;font-family:Arial,Helvetica,sans-serif;color:#111827">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6;padding:24px 0">
<tr><td align="center">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;width:100%">
<tr><td align="center" style="padding:8px 0 16px"><img src="{{logoUrl}}" alt="{{brandName}}" height="40" style="height:40px;border:0"></td></tr>
<tr><td style="background:#ffffff;border-radius:8px;padding:32px;border:1px solid #e5e7eb">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0">
<tr><td style="font-size:20px;font-weight:700;padding:0 0 16px">Pembayaran diterima</td></tr>
<tr><td style="font-size:15px;line-height:24px;padding:0 0 16px">Halo {{name}}, pembayaran tagihan <strong>{{invoiceNumber}}</strong> sebesar <strong>{{amount}}</strong> telah kami terima pada {{paidAt}}. Langganan {{brandName}} {{tenantName}} aktif sampai <strong>{{activeUntil}}</strong>.</td></tr>

</table>
</td></tr>
<tr><td align="center" style="padding:16px;color:#9ca3af;font-size:12px">&copy; {{year}} {{brandName}}. Email ini dikirim otomatis, mohon tidak membalas kecuali diminta.</td></tr>
</table>
</td></tr>
</table>
</body>
</html>', 'Halo {{name}},

Pembayaran tagihan {{invoiceNumber}} sebesar {{amount}} diterima pada {{paidAt}}. Langganan {{tenantName}} aktif sampai {{activeUntil}}.

--
{{brandName}}', '["name","tenantName","invoiceNumber","amount","paidAt","activeUntil"]', '{"name":"Budi Santoso","tenantName":"RT 05 / RW 02","invoiceNumber":"INV/2026/11/0001","amount":"Rp588.000","paidAt":"20 November 2026","activeUntil":"20 November 2027"}', 1, '2026-11-23T00:00:00.000Z', '2026-11-23T00:00:00.000Z') ON CONFLICT(`code`, `locale`) DO NOTHING;
