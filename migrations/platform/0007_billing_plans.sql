-- Custom SQL migration file, put your code below! --
-- The two plans every deployment starts with (issue 15); operators add more over
-- POST /api/platform/billing/plans. Prices are integer rupiah per month.
INSERT INTO `billing_plans` (`code`, `name`, `price_per_month`, `max_residents`, `description`, `active`, `updated_at`)
VALUES ('dasar', 'Dasar', 49000, 100, 'Untuk satu RT: sampai 100 warga, semua modul inti.', 1, '2026-11-23T00:00:00.000Z')
ON CONFLICT (`code`) DO NOTHING;--> statement-breakpoint
INSERT INTO `billing_plans` (`code`, `name`, `price_per_month`, `max_residents`, `description`, `active`, `updated_at`)
VALUES ('plus', 'Plus', 99000, 500, 'Untuk RT besar dan RW: sampai 500 warga, iuran online dan laporan keuangan.', 1, '2026-11-23T00:00:00.000Z')
ON CONFLICT (`code`) DO NOTHING;
