import { createExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { buildApp, jobs } from "../../../src/app";
import { platformDb } from "../../../src/core/db/platform";
import { tenants } from "../../../src/core/db/platform-schema";
import type { Bindings } from "../../../src/core/env";
import { CRON, runScheduled } from "../../../src/core/jobs";
import { systemPlatformCtx } from "../../../src/core/tenancy/system";
import { DAY_MS } from "../../../src/core/time";
import { billingInvoices, billingSubscriptions } from "../../../src/modules/billing/platform-tables";
import {
  callJson,
  createTenant,
  expectProblem,
  login,
  operatorToken,
  type TestTenant,
} from "../../helpers/harness";
import { queuedMessages } from "../../helpers/notify";
import { bindings, type FakeGateways, fakeGateways, midtransNotification, postCallback } from "./gateway";

interface Invoice {
  id: string;
  number: string;
  plan: string;
  months: number;
  amount: number;
  status: string;
  dueAt: string;
  orderId: string;
  paymentUrl: string | null;
  paidAt: string | null;
  note: string | null;
  history: { status: string; by: string; note?: string }[];
}
interface InvoiceList {
  items: Invoice[];
  nextCursor: string | null;
  subscription: { plan: string; status: string; activeUntil: string; graceUntil: string };
}

const db = () => platformDb(bindings);
const subscriptionOf = (tenantId: string) =>
  db().select().from(billingSubscriptions).where(eq(billingSubscriptions.tenantId, tenantId)).get();
const runDaily = (at: Date) =>
  runScheduled(systemPlatformCtx(bindings, "test"), jobs, CRON.JAKARTA_DAILY, at);

async function setup() {
  const tenant = await createTenant();
  const admin = await tenant.member("admin");
  return { tenant, admin };
}

let gw: FakeGateways;
afterEach(() => {
  vi.restoreAllMocks();
});

async function issue(token: string, body: unknown = { plan: "dasar", months: 12 }) {
  gw = fakeGateways();
  return callJson<Invoice>("/api/billing/invoices", { token, body });
}

/** The gateway settles the order, its status API agrees, and it notifies us. */
async function pay(invoice: Invoice) {
  const gross = `${invoice.amount}.00`;
  gw.midtrans.set(invoice.orderId, { transaction_status: "settlement", gross_amount: gross });
  const res = await postCallback(
    await midtransNotification(invoice.orderId, { transaction_status: "settlement", gross_amount: gross }),
  );
  expect(res.status).toBe(200);
  return (await res.json()) as { status: string };
}

describe("who pays the subscription", () => {
  it("is every staff duty (spec: S): the bendahara sees the plans, issues and lists invoices; a resident may not", async () => {
    const tenant = await createTenant();
    const bendahara = await tenant.member("bendahara");
    expect((await callJson("/api/billing/plans", { token: bendahara.token })).status).toBe(200);
    const res = await issue(bendahara.token, { plan: "dasar", months: 1 });
    expect(res.status).toBe(201);
    expect(gw.sent[0]?.body).toMatchObject({ customer_details: { email: bendahara.email } });
    const list = await callJson<InvoiceList>("/api/billing/invoices", { token: bendahara.token });
    expect(list.body.items.map((i) => i.id)).toEqual([res.body.id]);
    const resident = await tenant.member("warga");
    expectProblem(await issue(resident.token), 403, "forbidden_role");
    expectProblem(await callJson("/api/billing/invoices", { token: resident.token }), 403, "forbidden_role");
  });
});

describe("the tenant admin's invoices", () => {
  let tenant: TestTenant;
  let admin: { token: string; email: string };
  beforeAll(async () => {
    ({ tenant, admin } = await setup());
  });

  it("issues a renewal at the plan's price with its payment URL, number and INVOICE_ISSUED email", async () => {
    const res = await issue(admin.token);
    expect(res.status).toBe(201);
    const year = new Date(Date.now() + 7 * 3_600_000).getUTCFullYear();
    expect(res.body).toMatchObject({ plan: "dasar", months: 12, amount: 588_000, status: "issued" });
    expect(res.body.number).toMatch(new RegExp(`^INV/${year}/\\d{2}/\\d{4}$`));
    expect(res.body.orderId).toMatch(/^langganan-/);
    expect(res.body.paymentUrl).toMatch(/^https:\/\/app\.sandbox\.midtrans\.com\//);
    expect(gw.sent[0]?.body).toMatchObject({
      transaction_details: { order_id: res.body.orderId, gross_amount: 588_000 },
      customer_details: { email: admin.email },
    });
    const [mail] = await queuedMessages({ recipient: admin.email, template: "INVOICE_ISSUED" });
    expect(mail?.subject).toContain(res.body.number);
    expect(mail?.payload.text).toContain("Rp588.000");
    expect(mail?.payload.text).toContain(res.body.paymentUrl);
    // Trial until 30 days after creation; the renewal is due when the trial ends.
    const sub = await subscriptionOf(tenant.id);
    expect(sub?.status).toBe("trial");
    expect(res.body.dueAt).toBe(sub?.activeUntil);
  });

  it("refuses an unknown plan and a bad number of months", async () => {
    expectProblem(await issue(admin.token, { plan: "emas", months: 1 }), 404, "plan_not_found");
    expectProblem(await issue(admin.token, { plan: "dasar", months: 0 }), 400, "invalid_input");
  });

  it("replaces the open invoice with a new one (an upgrade), and the old one cannot be paid as a URL any more", async () => {
    const first = (await issue(admin.token, { plan: "dasar", months: 1 })).body;
    const second = (await issue(admin.token, { plan: "plus", months: 1 })).body;
    expect(second.amount).toBe(99_000);
    const list = await callJson<InvoiceList>("/api/billing/invoices?limit=100", { token: admin.token });
    const old = list.body.items.find((i) => i.id === first.id);
    expect(old).toMatchObject({ status: "void", paymentUrl: null });
    expect(list.body.items.filter((i) => i.status === "issued").map((i) => i.id)).toEqual([second.id]);
  });

  it("on payment (delivered 20 times at once) marks it paid, extends the subscription once from its current end, and sends INVOICE_PAID once", async () => {
    const invoice = (await issue(admin.token, { plan: "plus", months: 3 })).body;
    const before = await subscriptionOf(tenant.id);
    // Twenty deliveries at once: the order moves once, the invoice's guard lets one extension through.
    const answers = await Promise.all(Array.from({ length: 20 }, () => pay(invoice)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill("paid"));
    const list = await callJson<InvoiceList>("/api/billing/invoices?limit=100", { token: admin.token });
    const paid = list.body.items.find((i) => i.id === invoice.id);
    expect(paid).toMatchObject({
      status: "paid",
      paymentUrl: null,
      paymentReference: `tx-${invoice.orderId}`,
    });
    expect(paid?.history.map((h) => h.status)).toEqual(["issued", "paid"]);
    const expected = new Date(before?.activeUntil as string);
    expected.setUTCMonth(expected.getUTCMonth() + 3);
    expect(list.body.subscription).toMatchObject({
      plan: "plus",
      status: "aktif",
      activeUntil: expected.toISOString(),
    });
    const row = await db().select().from(tenants).where(eq(tenants.id, tenant.id)).get();
    expect(row?.subscriptionStatus).toBe("aktif");
    expect(await queuedMessages({ recipient: admin.email, template: "INVOICE_PAID" })).toHaveLength(1);
  });

  it("numbers invoices in one yearly sequence with no gaps or duplicates when issued at once", async () => {
    const operator = await operatorToken();
    gw = fakeGateways();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        callJson<Invoice>(`/api/platform/tenants/${tenant.id}/invoices`, {
          token: operator,
          body: { plan: "dasar", months: 1, amount: 10_000 + i, note: `Tagihan uji ${i}` },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
    const all = await db().select().from(billingInvoices);
    const seqs = all.map((i) => i.seq).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: all.length }, (_, i) => i + 1));
    expect(new Set(all.map((i) => i.number)).size).toBe(all.length);
    for (const i of all) {
      expect(i.number.endsWith(`/${String(i.seq).padStart(4, "0")}`)).toBe(true);
    }
  });
});

describe("the operator's invoices", () => {
  it("issues any amount with a note, lists them, and sees every callback", async () => {
    const { tenant, admin } = await setup();
    const operator = await operatorToken();
    gw = fakeGateways();
    const res = await callJson<Invoice>(`/api/platform/tenants/${tenant.id}/invoices`, {
      token: operator,
      body: {
        plan: "plus",
        months: 12,
        amount: 900_000,
        note: "Diskon program RW percontohan",
        dueInDays: 14,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      amount: 900_000,
      note: "Diskon program RW percontohan",
      status: "issued",
    });
    expect(await queuedMessages({ recipient: admin.email, template: "INVOICE_ISSUED" })).toHaveLength(1);
    const list = await callJson<InvoiceList>(`/api/platform/tenants/${tenant.id}/invoices`, {
      token: operator,
    });
    expect(list.body.items.map((i) => i.id)).toEqual([res.body.id]);
    expectProblem(
      await callJson(`/api/platform/tenants/01JUNKNOWNTENANT00000000000/invoices`, { token: operator }),
      404,
      "tenant_not_found",
    );

    await pay(res.body);
    const callbacks = await callJson<{ items: { orderId: string; verified: boolean; outcome: string }[] }>(
      `/api/platform/payments/callbacks?orderId=${res.body.orderId}`,
      { token: operator },
    );
    expect(callbacks.body.items).toMatchObject([
      { orderId: res.body.orderId, verified: true, outcome: "applied" },
    ]);
  });

  it("adds a plan, and a duplicate code is 409", async () => {
    const operator = await operatorToken();
    const body = { code: "rw-pro", name: "RW Pro", pricePerMonth: 249_000, maxResidents: 2000 };
    expect((await callJson("/api/platform/billing/plans", { token: operator, body })).status).toBe(201);
    expectProblem(
      await callJson("/api/platform/billing/plans", { token: operator, body }),
      409,
      "plan_exists",
    );
    const { admin } = await setup();
    const plans = await callJson<{ items: { code: string }[] }>("/api/billing/plans", { token: admin.token });
    expect(plans.body.items.map((p) => p.code)).toEqual(["dasar", "plus", "rw-pro"]);
  });
});

describe("grace and inactive subscriptions", () => {
  it("keeps a lapsed community writable in grace, read-only (402) after it, and open again once paid", async () => {
    const { tenant, admin } = await setup();
    const now = Date.now();
    await db()
      .insert(billingSubscriptions)
      .values({
        tenantId: tenant.id,
        planCode: "dasar",
        status: "aktif",
        activeUntil: new Date(now - DAY_MS).toISOString(),
        updatedAt: new Date().toISOString(),
      });
    const write = () =>
      callJson("/api/kependudukan/units", { token: admin.token, body: { block: "A", number: "1" } });

    await runDaily(new Date(now));
    expect((await subscriptionOf(tenant.id))?.status).toBe("tenggang");
    expect((await write()).status).toBe(201);

    await db()
      .update(billingSubscriptions)
      .set({ activeUntil: new Date(now - 15 * DAY_MS).toISOString() })
      .where(eq(billingSubscriptions.tenantId, tenant.id));
    const report = await runDaily(new Date(now));
    expect(report["billing.daily"]).toMatchObject({ statusChanges: expect.any(Number) });
    expect((await subscriptionOf(tenant.id))?.status).toBe("nonaktif");

    expectProblem(await write(), 402, "subscription_inactive");
    expect((await callJson("/api/kependudukan/units", { token: admin.token })).status).toBe(200);
    // Sign-in and profile are not tenant writes; billing is exempt, so the community can pay its way back.
    const profile = await callJson("/api/user/profile", {
      method: "PUT",
      token: admin.token,
      body: { fullName: "Ketua Baru", whatsapp: "081298765432", block: "A", houseNumber: "1" },
    });
    expect(profile.status).toBe(200);
    await expect(login(admin.email, tenant.slug)).resolves.toEqual(expect.any(String));
    const invoice = await issue(admin.token, { plan: "dasar", months: 1 });
    expect(invoice.status).toBe(201);
    await pay(invoice.body);
    const sub = await subscriptionOf(tenant.id);
    expect(sub?.status).toBe("aktif");
    // Extended from now, not from the lapsed end.
    expect(new Date(sub?.activeUntil as string).getTime()).toBeGreaterThan(now + 27 * DAY_MS);
    expect((await write()).status).toBe(409);
  });
});

describe("the local payment simulator", () => {
  it("clicks through invoice → Bayar → signed callback → paid in ENVIRONMENT=local without keys", async () => {
    const { admin } = await setup();
    const local = {
      ...bindings,
      ENVIRONMENT: "local",
      MIDTRANS_SERVER_KEY: undefined,
      XENDIT_SECRET_KEY: undefined,
      XENDIT_CALLBACK_TOKEN: undefined,
    } as Bindings;
    const app = buildApp();
    const localCall = (path: string, init: RequestInit = {}) =>
      app.fetch(new Request(`http://127.0.0.1:8787${path}`, init), local, createExecutionContext());
    const outbound = vi.spyOn(globalThis, "fetch");

    const issued = await localCall("/api/billing/invoices", {
      method: "POST",
      headers: { Authorization: `Bearer ${admin.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ plan: "dasar", months: 1 }),
    });
    expect(issued.status).toBe(201);
    const invoice = (await issued.json()) as Invoice;
    const pageUrl = new URL(invoice.paymentUrl as string);
    expect(pageUrl.pathname).toBe(`/dev/payments/${invoice.orderId}`);

    const page = await localCall(pageUrl.pathname);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Rp49.000");
    expect(html).toContain(">Bayar</button>");
    expect(html).toContain(">Gagal</button>");
    expect(html).not.toContain("<script");

    const paid = await localCall(pageUrl.pathname, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "result=settlement",
    });
    expect(paid.status).toBe(200);
    expect(await paid.text()).toContain("Pembayaran berhasil");
    expect(outbound).not.toHaveBeenCalled();

    const list = await callJson<InvoiceList>("/api/billing/invoices", { token: admin.token });
    expect(list.body.items[0]).toMatchObject({ id: invoice.id, status: "paid" });
    expect(await queuedMessages({ recipient: admin.email, template: "INVOICE_PAID" })).toHaveLength(1);
    // The same page in the test environment does not exist.
    expect((await callJson(pageUrl.pathname)).status).toBe(404);
  });
});

// Last in the file: the runs at later dates expire other tests' short invoices too.
describe("reminders and expiry (daily job)", () => {
  it("reminds 7 and 1 days before due, once each, then expires the unpaid invoice", async () => {
    const { tenant, admin } = await setup();
    gw = fakeGateways();
    const res = await callJson<Invoice>(`/api/platform/tenants/${tenant.id}/invoices`, {
      token: await operatorToken(),
      body: { plan: "dasar", months: 1, dueInDays: 10 },
    });
    const due = new Date(res.body.dueAt).getTime();
    const reminders = () => queuedMessages({ recipient: admin.email, template: "INVOICE_REMINDER" });

    await runDaily(new Date(due - 8.5 * DAY_MS));
    expect(await reminders()).toHaveLength(0);
    await runDaily(new Date(due - 6.5 * DAY_MS));
    await runDaily(new Date(due - 6.5 * DAY_MS));
    expect((await reminders()).map((m) => m.subject)).toEqual([expect.stringContaining("7 hari lagi")]);
    await runDaily(new Date(due - 0.5 * DAY_MS));
    await runDaily(new Date(due - 0.4 * DAY_MS));
    expect((await reminders()).map((m) => m.subject)).toEqual([
      expect.stringContaining("7 hari lagi"),
      expect.stringContaining("1 hari lagi"),
    ]);

    await runDaily(new Date(due + 0.5 * DAY_MS));
    const list = await callJson<InvoiceList>("/api/billing/invoices", { token: admin.token });
    expect(list.body.items[0]).toMatchObject({ id: res.body.id, status: "expired", paymentUrl: null });
    expect(list.body.items[0]?.history.map((h) => h.status)).toEqual(["issued", "expired"]);
  });
});
