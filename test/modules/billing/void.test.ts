import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { platformDb } from "../../../src/core/db/platform";
import { billingSubscriptions } from "../../../src/modules/billing/platform-tables";
import { callJson, createTenant, expectProblem, operatorToken } from "../../helpers/harness";
import { queuedMessages } from "../../helpers/notify";
import { bindings, type FakeGateways, fakeGateways, midtransNotification, postCallback } from "./gateway";

/**
 * An operator voids a community's unpaid invoice (`POST /api/platform/tenants/:id/invoices/:invoiceId/void`):
 * the invoice is no longer payable, and a payment the gateway still settles for it is refused and
 * recorded rather than marking it paid.
 */
interface Invoice {
  id: string;
  number: string;
  amount: number;
  status: string;
  orderId: string;
  paymentUrl: string | null;
  paidAt: string | null;
  voidedAt: string | null;
  voidReason: string | null;
  history: { status: string; by: string; note?: string }[];
}
interface InvoiceList {
  items: Invoice[];
  subscription: { status: string; activeUntil: string };
}

let gw: FakeGateways;
afterEach(() => {
  vi.restoreAllMocks();
});

const REASON = "Salah paket: tagihan ini diganti";

async function setup() {
  const tenant = await createTenant();
  const admin = await tenant.member("admin");
  const operator = await operatorToken();
  gw = fakeGateways();
  return { tenant, admin, operator };
}

async function operatorInvoice(operator: string, tenantId: string) {
  const res = await callJson<Invoice>(`/api/platform/tenants/${tenantId}/invoices`, {
    token: operator,
    body: { plan: "dasar", months: 3, amount: 120_000, note: "Tagihan triwulan" },
  });
  expect(res.status).toBe(201);
  return res.body;
}

const voidIt = (operator: string, tenantId: string, invoiceId: string, body: unknown = { reason: REASON }) =>
  callJson<Invoice>(`/api/platform/tenants/${tenantId}/invoices/${invoiceId}/void`, {
    token: operator,
    body,
  });

/** The gateway settles the order, its status API agrees, and it notifies us. */
async function settle(invoice: { orderId: string; amount: number }) {
  const gross = `${invoice.amount}.00`;
  gw.midtrans.set(invoice.orderId, { transaction_status: "settlement", gross_amount: gross });
  return postCallback(
    await midtransNotification(invoice.orderId, { transaction_status: "settlement", gross_amount: gross }),
  );
}

const subscriptionOf = (tenantId: string) =>
  platformDb(bindings)
    .select()
    .from(billingSubscriptions)
    .where(eq(billingSubscriptions.tenantId, tenantId))
    .get();

async function auditActions(tenantId: string, action: string) {
  const rows = await bindings.PLATFORM_DB.prepare(
    "SELECT target_id AS targetId, detail FROM audit_log WHERE tenant_id = ? AND action = ?",
  )
    .bind(tenantId, action)
    .all<{ targetId: string; detail: string }>();
  return rows.results.map((r) => ({ targetId: r.targetId, detail: JSON.parse(r.detail) }));
}

async function adminList(token: string) {
  const res = await callJson<InvoiceList>("/api/billing/invoices?limit=100", { token });
  expect(res.status).toBe(200);
  return res.body;
}

describe("voiding an invoice", () => {
  it("voids an unpaid invoice with a reason and an audit record; the community's admin sees it void, without a payment URL", async () => {
    const { tenant, admin, operator } = await setup();
    const invoice = await operatorInvoice(operator, tenant.id);
    const res = await voidIt(operator, tenant.id, invoice.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: invoice.id,
      status: "void",
      paymentUrl: null,
      voidReason: REASON,
      voidedAt: expect.any(String),
      paidAt: null,
    });
    expect(res.body.history.map((h) => [h.status, h.note])).toEqual([
      ["issued", "Tagihan triwulan"],
      ["void", REASON],
    ]);
    expect(res.body.history[1]?.by).toMatch(/^operator:/);

    const seen = (await adminList(admin.token)).items.find((i) => i.id === invoice.id);
    expect(seen).toMatchObject({ status: "void", voidReason: REASON, paymentUrl: null });
    expect(await auditActions(tenant.id, "billing.invoice_voided")).toEqual([
      { targetId: invoice.id, detail: expect.objectContaining({ from: "issued", reason: REASON }) },
    ]);
  });

  it("refuses a paid invoice (409 invoice_paid) and a second void (409 invoice_already_void)", async () => {
    const { tenant, operator } = await setup();
    const paid = await operatorInvoice(operator, tenant.id);
    expect((await settle(paid)).status).toBe(200);
    expectProblem(await voidIt(operator, tenant.id, paid.id), 409, "invoice_paid");

    const open = await operatorInvoice(operator, tenant.id);
    expect((await voidIt(operator, tenant.id, open.id)).status).toBe(200);
    expectProblem(await voidIt(operator, tenant.id, open.id), 409, "invoice_already_void");
    expect(await auditActions(tenant.id, "billing.invoice_voided")).toHaveLength(1);
  });

  it("lets one of two concurrent voids of the same invoice through", async () => {
    const { tenant, operator } = await setup();
    const invoice = await operatorInvoice(operator, tenant.id);
    const answers = await Promise.all([
      voidIt(operator, tenant.id, invoice.id),
      voidIt(operator, tenant.id, invoice.id, { reason: "Dobel" }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await auditActions(tenant.id, "billing.invoice_voided")).toHaveLength(1);
  });

  it("does not mark a voided invoice paid when the gateway settles it late: the payment is recorded once for a refund and the subscription stays", async () => {
    const { tenant, admin, operator } = await setup();
    const invoice = await operatorInvoice(operator, tenant.id);
    const before = await subscriptionOf(tenant.id);
    expect((await voidIt(operator, tenant.id, invoice.id)).status).toBe(200);

    // Twenty deliveries at once: each is answered 200 (a retry could not change the outcome).
    const answers = await Promise.all(Array.from({ length: 20 }, () => settle(invoice)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));

    const after = (await adminList(admin.token)).items.find((i) => i.id === invoice.id);
    expect(after).toMatchObject({ status: "void", paidAt: null, paymentUrl: null });
    expect(after?.history.map((h) => [h.status, h.note])).toEqual([
      ["issued", "Tagihan triwulan"],
      ["void", REASON],
      ["payment_refused", invoice.orderId],
    ]);
    expect(await subscriptionOf(tenant.id)).toEqual(before);
    expect(await queuedMessages({ recipient: admin.email, template: "INVOICE_PAID" })).toHaveLength(0);
    expect(await auditActions(tenant.id, "billing.invoice_paid")).toEqual([]);
    expect(await auditActions(tenant.id, "billing.payment_refused")).toEqual([
      {
        targetId: invoice.id,
        detail: expect.objectContaining({
          orderId: invoice.orderId,
          amount: 120_000,
          reason: "invoice_void",
        }),
      },
    ]);
    // The operator still sees the money arrive at the gateway, for the refund.
    const callbacks = await callJson<{ items: { verified: boolean }[] }>(
      `/api/platform/payments/callbacks?orderId=${invoice.orderId}`,
      { token: operator },
    );
    expect(callbacks.body.items.length).toBe(20);
    expect(callbacks.body.items.every((c) => c.verified)).toBe(true);
  });

  it("still counts a late payment of an invoice the admin's newer one replaced (not voided by an operator)", async () => {
    const { admin } = await setup();
    const first = await callJson<Invoice>("/api/billing/invoices", {
      token: admin.token,
      body: { plan: "dasar", months: 1 },
    });
    await callJson("/api/billing/invoices", { token: admin.token, body: { plan: "plus", months: 1 } });
    const replaced = (await adminList(admin.token)).items.find((i) => i.id === first.body.id);
    expect(replaced).toMatchObject({ status: "void", voidedAt: null, voidReason: null });
    expect((await settle(first.body)).status).toBe(200);
    expect((await adminList(admin.token)).items.find((i) => i.id === first.body.id)).toMatchObject({
      status: "paid",
    });
  });

  it("voids a replaced invoice for good when the operator says so: its late payment is then refused", async () => {
    const { tenant, admin, operator } = await setup();
    const first = await callJson<Invoice>("/api/billing/invoices", {
      token: admin.token,
      body: { plan: "dasar", months: 1 },
    });
    await callJson("/api/billing/invoices", { token: admin.token, body: { plan: "plus", months: 1 } });
    const res = await voidIt(operator, tenant.id, first.body.id);
    expect(res.status).toBe(200);
    expect(res.body.history.map((h) => h.status)).toEqual(["issued", "void", "void"]);
    expect((await settle(first.body)).status).toBe(200);
    expect((await adminList(admin.token)).items.find((i) => i.id === first.body.id)).toMatchObject({
      status: "void",
      paidAt: null,
    });
  });

  it("answers 404 for an unknown tenant, an unknown invoice and another tenant's invoice; 403 to the tenant admin; 400 without a reason", async () => {
    const { tenant, admin, operator } = await setup();
    const invoice = await operatorInvoice(operator, tenant.id);
    const other = await createTenant();
    expectProblem(await voidIt(operator, "01JUNKNOWNTENANT00000000000", invoice.id), 404, "tenant_not_found");
    expectProblem(await voidIt(operator, tenant.id, "01JUNKNOWNINVOICE0000000000"), 404, "invoice_not_found");
    expectProblem(await voidIt(operator, other.id, invoice.id), 404, "invoice_not_found");
    expectProblem(await voidIt(admin.token, tenant.id, invoice.id), 403, "forbidden_role");
    for (const body of [{}, { reason: "" }, { reason: "  " }]) {
      expectProblem(await voidIt(operator, tenant.id, invoice.id, body), 400, "invalid_input");
    }
    expect((await adminList(admin.token)).items.find((i) => i.id === invoice.id)?.status).toBe("issued");
  });
});
