-- CONTACT_AUTO_REPLY carries [TKT:{{replyToken}}] in its subject so the sender can answer by email.
-- Only the seeded version is updated: a template an operator edited over the API is left alone.
UPDATE `templates`
SET `subject` = '[TKT:{{replyToken}}] Terima kasih telah menghubungi {{brandName}}',
    `variables` = '["name","replyToken"]',
    `sample_data` = '{"name":"Siti Aminah","replyToken":"q0Zl3c9R2hVb8wJtY4kN1xPaE7uMfD6s","message":"Kami ingin mencoba Warga untuk 12 RT di wilayah kami."}',
    `version` = `version` + 1,
    `updated_at` = '2026-11-22T00:00:00.000Z'
WHERE `code` = 'CONTACT_AUTO_REPLY' AND `locale` = 'id' AND `version` = 1;
