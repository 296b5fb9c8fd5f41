// Demo finance for each RT: two dues types, three months of bills for the demo houses (some paid, one
// partly, one owed, one bounced transfer reversed) and this month's social fund owed by every house (so
// each demo resident has a bill to pay in the app), the cash book those payments posted to, an opening
// balance, an approved expense and the head's own waiting for the treasurer, this year's budget and a
// campaign with a confirmed donation and the treasurer's own pledge; the kept dues balances. Fixed ids:
// every run is a no-op after the first. Amounts are whole rupiah.
import { movedOutHead } from "./kependudukan.mjs";

const JAKARTA_MS = 7 * 3_600_000;

function period(now, back) {
  const d = new Date(now.getTime() + JAKARTA_MS);
  const m = d.getUTCFullYear() * 12 + d.getUTCMonth() - back;
  return `${Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, "0")}`;
}

export function tenantSql({ accounts, now, q, rt }) {
  if (!rt) {
    return "";
  }
  const at = new Date(now);
  const iso = at.toISOString();
  const homes = accounts.filter((a) => a.tenant === `seed-tenant-${rt}` && a.unit).map((a) => a.unit.id);
  const periods = [period(at, 2), period(at, 1), period(at, 0)];
  const types = [
    { id: `seed-dues-${rt}-kebersihan`, name: "Iuran kebersihan", amount: 25_000 },
    { id: `seed-dues-${rt}-keamanan`, name: "Iuran keamanan", amount: 50_000 },
  ];
  const lines = [];
  const cash = (id, kind, category, amount, date, note, source, sourceId) =>
    lines.push(`INSERT OR IGNORE INTO cash_entries (id, kind, category, amount, date, note, source, source_id, created_by)
VALUES (${q(id)}, ${q(kind)}, ${q(category)}, ${amount}, ${q(date)}, ${q(note)}, ${q(source)}, ${q(sourceId)}, ${q(`seed-user-bendahara-${rt}`)});`);

  cash(
    `seed-kas-${rt}-saldo`,
    "masuk",
    "Saldo awal",
    3_500_000,
    `${periods[0]}-01`,
    "Saldo kas dari pengurus lama",
    "manual",
    null,
  );
  for (const t of types) {
    lines.push(`INSERT OR IGNORE INTO dues_types (id, name, basis, start_period, active, rates, exempt_unit_ids, updated_at)
VALUES (${q(t.id)}, ${q(t.name)}, 'unit', ${q(periods[0])}, 1, ${q(JSON.stringify([{ from: periods[0], amount: t.amount }]))}, '[]', ${q(iso)});`);
    periods.forEach((p, pi) => {
      homes.forEach((unitId, hi) => {
        // Older months are paid; this month the first house paid, the second paid part, the third owes.
        // In RT 01 the third house owes all three months (issue 45: paying several in one checkout).
        const paid =
          rt === "rt01" && hi === 2
            ? 0
            : pi < 2
              ? hi === 2 && pi === 1
                ? 0
                : t.amount
              : hi === 0
                ? t.amount
                : hi === 1
                  ? Math.round(t.amount / 2)
                  : 0;
        const status = paid === 0 ? "belum" : paid === t.amount ? "lunas" : "sebagian";
        const billId = `seed-bill-${rt}-${t.id.split("-").at(-1)}-${p}-${hi + 1}`;
        lines.push(`INSERT OR IGNORE INTO dues_bills (id, type_id, type_name, period, basis, target_id, unit_id, family_id, amount, paid_amount, status, last_payment_id, updated_at)
VALUES (${q(billId)}, ${q(t.id)}, ${q(t.name)}, ${q(p)}, 'unit', ${q(unitId)}, ${q(unitId)}, NULL, ${t.amount}, ${paid}, ${q(status)}, ${q(paid ? `${billId}-pay` : null)}, ${q(iso)});`);
        if (paid) {
          const date = `${p}-0${(hi % 7) + 3}`;
          cash(
            `${billId}-kas`,
            "masuk",
            t.name,
            paid,
            date,
            `Iuran ${t.name} ${p}`,
            "iuran",
            `${billId}-pay`,
          );
          lines.push(`INSERT OR IGNORE INTO dues_payments (id, bill_id, amount, method, paid_at, cash_entry_id, recorded_by)
VALUES (${q(`${billId}-pay`)}, ${q(billId)}, ${paid}, ${q(hi === 0 ? "transfer" : "tunai")}, ${q(`${date}T03:00:00.000Z`)}, ${q(`${billId}-kas`)}, ${q(`seed-user-bendahara-${rt}`)});`);
        }
      });
    });
  }

  // This month's social fund, owed by every house: each demo resident has a bill to pay online in the
  // app (issue 43), the first house included.
  const social = { id: `seed-dues-${rt}-sosial`, name: "Iuran sosial", amount: 20_000 };
  lines.push(`INSERT OR IGNORE INTO dues_types (id, name, basis, start_period, active, rates, exempt_unit_ids, updated_at)
VALUES (${q(social.id)}, ${q(social.name)}, 'unit', ${q(periods[2])}, 1, ${q(JSON.stringify([{ from: periods[2], amount: social.amount }]))}, '[]', ${q(iso)});`);
  homes.forEach((unitId, hi) => {
    const billId = `seed-bill-${rt}-sosial-${periods[2]}-${hi + 1}`;
    lines.push(`INSERT OR IGNORE INTO dues_bills (id, type_id, type_name, period, basis, target_id, unit_id, family_id, amount, paid_amount, status, last_payment_id, updated_at)
VALUES (${q(billId)}, ${q(social.id)}, ${q(social.name)}, ${q(periods[2])}, 'unit', ${q(unitId)}, ${q(unitId)}, NULL, ${social.amount}, 0, 'belum', NULL, ${q(iso)});`);
  });

  // Last month's security dues of the third house: a transfer the bank bounced, recorded and then
  // reversed by the treasurer. The bill stays unpaid; the cash book keeps the payment's entry and its
  // linked opposite, as POST /api/iuran/pembayaran/:id/pembatalan writes them.
  const bounced = `seed-bill-${rt}-keamanan-${periods[1]}-3`;
  const bouncedDate = `${periods[1]}-06`;
  const reversedDate = `${periods[1]}-09`;
  cash(
    `${bounced}-kas`,
    "masuk",
    "Iuran keamanan",
    50_000,
    bouncedDate,
    `Iuran Iuran keamanan ${periods[1]}`,
    "iuran",
    `${bounced}-pay`,
  );
  lines.push(`INSERT OR IGNORE INTO cash_entries (id, kind, category, amount, date, note, source, source_id, reverses_id, created_by)
VALUES (${q(`${bounced}-batal`)}, 'keluar', 'Iuran keamanan', 50000, ${q(reversedDate)}, ${q(`Pembatalan iuran Iuran keamanan ${periods[1]}: Transfer dibatalkan bank`)}, 'koreksi', ${q(`${bounced}-kas`)}, ${q(`${bounced}-kas`)}, ${q(`seed-user-bendahara-${rt}`)});`);
  lines.push(`INSERT OR IGNORE INTO dues_payments (id, bill_id, amount, method, paid_at, cash_entry_id, recorded_by, reversed_at, reversed_by, reversal_reason, reversal_entry_id)
VALUES (${q(`${bounced}-pay`)}, ${q(bounced)}, 50000, 'transfer', ${q(`${bouncedDate}T03:00:00.000Z`)}, ${q(`${bounced}-kas`)}, ${q(`seed-user-bendahara-${rt}`)}, ${q(`${reversedDate}T04:00:00.000Z`)}, ${q(`seed-user-bendahara-${rt}`)}, 'Transfer dibatalkan bank', ${q(`${bounced}-batal`)});`);

  // Issue 45: in RT 01 the family that moved out on 30 September (kependudukan.mjs: the last of the
  // street's other households, its house now kosong) left September's dues unpaid. Recording the move
  // settled them to its family card: its debt (GET /api/iuran/tunggakan/pindah), not the empty house's.
  if (rt === "rt01") {
    const { cardId } = movedOutHead(accounts);
    const unitId = "seed-unit-rt01-x12";
    for (const t of types) {
      const billId = `seed-bill-rt01-pindah-${t.id.split("-").at(-1)}-2026-09`;
      lines.push(`INSERT OR IGNORE INTO dues_bills (id, type_id, type_name, period, basis, target_id, unit_id, family_id, moved_out_family_id, amount, paid_amount, status, last_payment_id, updated_at)
VALUES (${q(billId)}, ${q(t.id)}, ${q(t.name)}, '2026-09', 'unit', ${q(unitId)}, ${q(unitId)}, NULL, ${q(cardId)}, ${t.amount}, 0, 'belum', NULL, ${q(iso)});`);
    }
  }

  // The kept dues balances (ADR 0028) from the bills above: the verbs keep them in each batch, and
  // this seed writes bills around the verbs, so it rewrites them whole from the bills (idempotent).
  lines.push(`DELETE FROM dues_balances;`);
  lines.push(`INSERT INTO dues_balances (target_id, period, basis, unit_id, family_id, outstanding, open_bills)
SELECT target_id, period, max(basis), unit_id, max(family_id), sum(amount - paid_amount), count(*)
FROM dues_bills WHERE status IN ('belum', 'sebagian') AND moved_out_family_id IS NULL
GROUP BY unit_id, period, target_id;`);
  lines.push(`DELETE FROM dues_unit_balances;`);
  lines.push(`INSERT INTO dues_unit_balances (unit_id, owed, open_bills, oldest_period, newest_period)
SELECT unit_id, sum(outstanding), sum(open_bills), min(period), max(period) FROM dues_balances GROUP BY unit_id;`);

  const expenseId = `seed-expense-${rt}-satpam`;
  lines.push(`INSERT OR IGNORE INTO expenses (id, category, amount, date, description, status, submitted_by, decided_by, decided_at, cash_entry_id, updated_at)
VALUES (${q(expenseId)}, 'Keamanan', 1500000, ${q(`${periods[1]}-25`)}, 'Honor satpam komplek', 'disetujui', ${q(`seed-user-bendahara-${rt}`)}, ${q(`seed-user-admin-${rt}`)}, ${q(iso)}, ${q(`${expenseId}-kas`)}, ${q(iso)});`);
  cash(
    `${expenseId}-kas`,
    "keluar",
    "Keamanan",
    1_500_000,
    `${periods[1]}-25`,
    "Honor satpam komplek",
    "pengeluaran",
    expenseId,
  );
  lines.push(`INSERT OR IGNORE INTO expenses (id, category, amount, date, description, status, submitted_by, updated_at)
VALUES (${q(`seed-expense-${rt}-lampu`)}, 'Infrastruktur', 850000, ${q(`${periods[2]}-02`)}, 'Ganti 6 lampu jalan gang', 'diajukan', ${q(`seed-user-bendahara-${rt}`)}, ${q(iso)});`);

  // Separation of duties (issue 31 N5): the head's own expense waits for another officer (the
  // treasurer may decide it), never for the head.
  lines.push(`INSERT OR IGNORE INTO expenses (id, category, amount, date, description, status, submitted_by, submitted_by_head, updated_at)
VALUES (${q(`seed-expense-${rt}-tenda`)}, 'Kegiatan', 1200000, ${q(`${periods[2]}-03`)}, 'Sewa tenda dan kursi rapat warga', 'diajukan', ${q(`seed-user-admin-${rt}`)}, 1, ${q(iso)});`);

  const year = Number(periods[2].slice(0, 4));
  for (const [category, amount] of [
    ["Keamanan", 18_000_000],
    ["Kebersihan", 6_000_000],
    ["Infrastruktur", 10_000_000],
  ]) {
    lines.push(`INSERT OR IGNORE INTO budget_lines (id, year, category, amount)
VALUES (${q(`seed-budget-${rt}-${year}-${category.toLowerCase()}`)}, ${year}, ${q(category)}, ${amount});`);
  }

  const deadline = new Date(at.getTime() + 45 * 86_400_000).toISOString().slice(0, 10);
  const campaignId = `seed-campaign-${rt}-posronda`;
  lines.push(`INSERT OR IGNORE INTO campaigns (id, title, description, target, deadline, status, created_by, updated_at)
VALUES (${q(campaignId)}, 'Renovasi pos ronda', 'Atap pos ronda bocor dan catnya mengelupas. Mari bergotong royong memperbaikinya sebelum musim hujan.', 5000000, ${q(deadline)}, 'aktif', ${q(`seed-user-sekretaris-${rt}`)}, ${q(iso)});`);
  lines.push(`INSERT OR IGNORE INTO donations (id, campaign_id, donor_id, donor_name, anonymous, amount, note, status, recorded_by, decided_by, decided_at, cash_entry_id, updated_at)
VALUES (${q(`${campaignId}-d1`)}, ${q(campaignId)}, ${q(`seed-user-warga1-${rt}`)}, NULL, 0, 500000, 'Semoga cepat selesai', 'dikonfirmasi', ${q(`seed-user-warga1-${rt}`)}, ${q(`seed-user-bendahara-${rt}`)}, ${q(iso)}, ${q(`${campaignId}-d1-kas`)}, ${q(iso)});`);
  cash(
    `${campaignId}-d1-kas`,
    "masuk",
    "Donasi",
    500_000,
    `${periods[2]}-01`,
    "Donasi: Renovasi pos ronda",
    "donasi",
    `${campaignId}-d1`,
  );
  lines.push(`INSERT OR IGNORE INTO donations (id, campaign_id, donor_id, anonymous, amount, status, recorded_by, updated_at)
VALUES (${q(`${campaignId}-d2`)}, ${q(campaignId)}, ${q(`seed-user-warga2-${rt}`)}, 1, 250000, 'dijanjikan', ${q(`seed-user-warga2-${rt}`)}, ${q(iso)});`);
  // The treasurer's own donation is a pledge like anyone's: another officer (the head) confirms it.
  lines.push(`INSERT OR IGNORE INTO donations (id, campaign_id, donor_id, anonymous, amount, note, status, recorded_by, updated_at)
VALUES (${q(`${campaignId}-d3`)}, ${q(campaignId)}, ${q(`seed-user-bendahara-${rt}`)}, 0, 300000, 'Dari keluarga bendahara', 'dijanjikan', ${q(`seed-user-bendahara-${rt}`)}, ${q(iso)});`);
  lines.push(`INSERT OR IGNORE INTO finance_settings (id, transparansi, expense_approval_threshold, updated_at)
VALUES (1, 1, 500000, ${q(iso)});`);

  // The cash book's kept month totals (ADR 0028) from the entries above, rewritten whole as the dues
  // balances are: the verbs keep them in each batch, and this seed writes entries around the verbs.
  lines.push(`DELETE FROM cash_months;`);
  lines.push(`INSERT INTO cash_months (month, category, income, expense, entries)
SELECT substr(date, 1, 7), category, sum(CASE WHEN kind = 'masuk' THEN amount ELSE 0 END),
  sum(CASE WHEN kind = 'keluar' THEN amount ELSE 0 END), count(*)
FROM cash_entries GROUP BY substr(date, 1, 7), category;`);
  return lines.join("\n");
}
