// Subscription billing demo data (issue 15): RW 05 paid up on Plus, RT 01 on Dasar with a renewal
// invoice open (payable at once through the local payment simulator), RT 02 in its trial with one
// invoice the operator voided.
// Idempotent: fixed ids with INSERT OR IGNORE, and a tenant's status is only written while it has no
// subscription yet, so a restart of `npm run dev` never undoes what was clicked through.

const DAY = 86_400_000;
const iso = (ms) => new Date(ms).toISOString();

export function platformSql({ now, q }) {
  const t = new Date(now).getTime();
  const wib = new Date(t + 7 * 3_600_000);
  const year = wib.getUTCFullYear();
  const month = String(wib.getUTCMonth() + 1).padStart(2, "0");
  const appUrl = "http://127.0.0.1:8787";

  const subscriptions = [
    { tenant: "seed-tenant-rw05", plan: "plus", status: "aktif", until: iso(t + 300 * DAY) },
    { tenant: "seed-tenant-rt01", plan: "dasar", status: "aktif", until: iso(t + 12 * DAY) },
    { tenant: "seed-tenant-rt02", plan: "dasar", status: "trial", until: iso(t + 25 * DAY) },
  ];
  const lines = [];
  for (const s of subscriptions) {
    lines.push(`UPDATE tenants SET subscription_status = ${q(s.status)}
WHERE id = ${q(s.tenant)} AND NOT EXISTS (SELECT 1 FROM billing_subscriptions WHERE tenant_id = ${q(s.tenant)});`);
    lines.push(`INSERT OR IGNORE INTO billing_subscriptions (tenant_id, plan_code, status, active_until, updated_at)
VALUES (${q(s.tenant)}, ${q(s.plan)}, ${q(s.status)}, ${q(s.until)}, ${q(now)});`);
  }

  // RW 05's paid year of Plus.
  const paidAt = iso(t - 65 * DAY);
  const paidHistory = JSON.stringify([
    { status: "issued", at: iso(t - 66 * DAY), by: "admin:seed" },
    { status: "paid", at: paidAt, by: "gateway:simulator" },
  ]);
  lines.push(`INSERT OR IGNORE INTO billing_invoices (id, number, year, seq, tenant_id, plan_code, months, amount, note, due_at, status, order_id, payment_url, payment_reference, paid_at, history, issued_by, write_id, created_at, updated_at)
VALUES ('seed-invoice-rw05-1', ${q(`INV/${year}/${month}/0001`)}, ${year}, 1, 'seed-tenant-rw05', 'plus', 12, 1188000, NULL, ${q(iso(t - 59 * DAY))}, 'paid', 'langganan-seed-rw05-1', NULL, 'SIM-7c1e2a90', ${q(paidAt)}, ${q(paidHistory)}, NULL, 'seed', ${q(iso(t - 66 * DAY))}, ${q(paidAt)});`);

  // RT 01's open renewal: a simulator order, so "Bayar" works in `npm run dev` right away.
  const orderId = "langganan-seed-rt01-2";
  const dueAt = iso(t + 12 * DAY);
  const issuedHistory = JSON.stringify([{ status: "issued", at: iso(t - DAY), by: "admin:seed" }]);
  lines.push(`INSERT OR IGNORE INTO payment_orders (id, kind, tenant_id, tenant_slug, ref_id, amount, description, gateway, gateway_ref, payment_url, status, expires_at, updated_at)
VALUES (${q(orderId)}, 'langganan', 'seed-tenant-rt01', 'rt-01-sukamaju', 'seed-invoice-rt01-2', 147000, 'Langganan Warga Dasar 3 bulan – RT 01 / RW 05 Sukamaju', 'simulator', ${q(`sim-${orderId}`)}, ${q(`${appUrl}/dev/payments/${orderId}`)}, 'pending', ${q(dueAt)}, ${q(now)});`);
  lines.push(`INSERT OR IGNORE INTO payment_simulations (order_id, gross_amount, transaction_status, transaction_id, updated_at)
VALUES (${q(orderId)}, 147000, 'pending', 'seed-sim-tx-rt01-2', ${q(now)});`);
  lines.push(`INSERT OR IGNORE INTO billing_invoices (id, number, year, seq, tenant_id, plan_code, months, amount, note, due_at, status, order_id, payment_url, payment_reference, paid_at, history, issued_by, write_id, created_at, updated_at)
VALUES ('seed-invoice-rt01-2', ${q(`INV/${year}/${month}/0002`)}, ${year}, 2, 'seed-tenant-rt01', 'dasar', 3, 147000, NULL, ${q(dueAt)}, 'issued', ${q(orderId)}, ${q(`${appUrl}/dev/payments/${orderId}`)}, NULL, NULL, ${q(issuedHistory)}, NULL, 'seed', ${q(iso(t - DAY))}, ${q(iso(t - DAY))});`);

  // RT 02's invoice for the wrong plan, voided by the operator: its admin sees it void with the reason,
  // and a late payment of its order would be refused and recorded for a refund.
  const voidOrderId = "langganan-seed-rt02-3";
  const voidedAt = iso(t - 2 * DAY);
  const voidHistory = JSON.stringify([
    { status: "issued", at: iso(t - 3 * DAY), by: "operator:seed-user-operator" },
    {
      status: "void",
      at: voidedAt,
      by: "operator:seed-user-operator",
      note: "Salah paket: RT 02 masih masa uji coba",
    },
  ]);
  lines.push(`INSERT OR IGNORE INTO payment_orders (id, kind, tenant_id, tenant_slug, ref_id, amount, description, gateway, gateway_ref, payment_url, status, expires_at, updated_at)
VALUES (${q(voidOrderId)}, 'langganan', 'seed-tenant-rt02', 'rt-02-sukamaju', 'seed-invoice-rt02-3', 297000, 'Langganan Warga Plus 3 bulan – RT 02 / RW 05 Sukamaju', 'simulator', ${q(`sim-${voidOrderId}`)}, ${q(`${appUrl}/dev/payments/${voidOrderId}`)}, 'pending', ${q(iso(t + 4 * DAY))}, ${q(now)});`);
  lines.push(`INSERT OR IGNORE INTO billing_invoices (id, number, year, seq, tenant_id, plan_code, months, amount, note, due_at, status, order_id, payment_url, payment_reference, paid_at, history, issued_by, voided_at, voided_by, void_reason, write_id, created_at, updated_at)
VALUES ('seed-invoice-rt02-3', ${q(`INV/${year}/${month}/0003`)}, ${year}, 3, 'seed-tenant-rt02', 'plus', 3, 297000, NULL, ${q(iso(t + 4 * DAY))}, 'void', ${q(voidOrderId)}, NULL, NULL, NULL, ${q(voidHistory)}, 'seed-user-operator', ${q(voidedAt)}, 'seed-user-operator', 'Salah paket: RT 02 masih masa uji coba', 'seed', ${q(iso(t - 3 * DAY))}, ${q(voidedAt)});`);
  return lines.join("\n");
}
