import { createExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../../../src/index";
import { jakartaTime, setNow } from "../../helpers/clock";
import { countingD1, tenantD1 } from "../../helpers/d1";
import { bindings, callJson, expectProblem } from "../../helpers/harness";
import { fakeGateways, midtransNotification, postCallback } from "../billing/gateway";
import { type Community, community } from "./helpers";

/**
 * Reversing a dues payment (`POST /api/iuran/pembayaran/:id/pembatalan`): the payment stays, marked
 * reversed; the bill is recomputed from the payments still standing; the cash book takes the opposite
 * entry linked to the payment's own; all in one batch with the audit record.
 */
afterEach(() => {
  vi.restoreAllMocks();
});

interface Reversal {
  at: string;
  by: string | null;
  reason: string;
  cashEntryId: string;
}
interface BillPayment {
  id: string;
  amount: number;
  method: string;
  cashEntryId: string;
  reversal: Reversal | null;
}
interface Bill {
  id: string;
  period: string;
  unitId: string;
  amount: number;
  paidAmount: number;
  outstanding: number;
  status: string;
  payments: BillPayment[];
}
interface Payment extends BillPayment {
  billId: string;
  bill: Omit<Bill, "payments">;
}
interface Entry {
  id: string;
  kind: string;
  category: string;
  amount: number;
  date: string;
  note: string;
  source: string;
  sourceId: string | null;
  reversesId: string | null;
}
interface CashBook {
  closingBalance: number;
  items: Entry[];
}

/** A community with one 25,000 bill for the household's unit in `period`. */
async function billed(period = "2026-03") {
  const c = await community();
  const type = await callJson("/api/iuran/jenis", {
    token: c.bendahara.token,
    body: { name: "Iuran kebersihan", amount: 25_000, basis: "unit", startPeriod: "2026-01" },
  });
  expect(type.status).toBe(201);
  await callJson("/api/iuran/tagihan/generate", { token: c.bendahara.token, body: { period } });
  const [bill] = await bills(c, `period=${period}&unitId=${c.home.unitId}`);
  if (!bill) {
    throw new Error("no bill");
  }
  return { c, bill };
}

async function bills(c: Community, query = "") {
  const res = await callJson<{ items: Bill[] }>(`/api/iuran/tagihan?limit=100&${query}`, {
    token: c.bendahara.token,
  });
  expect(res.status).toBe(200);
  return res.body.items;
}

async function pay(c: Community, billId: string, amount: number, paidAt = "2026-03-05T03:00:00.000Z") {
  const res = await callJson<Payment>(`/api/iuran/tagihan/${billId}/pembayaran`, {
    token: c.bendahara.token,
    body: { amount, method: "transfer", paidAt },
  });
  expect(res.status).toBe(201);
  return res.body;
}

const reverse = (token: string, paymentId: string, body: unknown = { reason: "Transfer dibatalkan bank" }) =>
  callJson<Payment>(`/api/iuran/pembayaran/${paymentId}/pembatalan`, { token, body });

async function cash(c: Community) {
  const res = await callJson<CashBook>("/api/kas?limit=100", { token: c.sek.token });
  expect(res.status).toBe(200);
  return res.body;
}

describe("reversing a dues payment", () => {
  it("marks the payment reversed, recomputes the bill from the payments still standing, and posts the linked opposite entry", async () => {
    setNow(jakartaTime("2026-04-10"));
    const { c, bill } = await billed();
    const first = await pay(c, bill.id, 10_000);
    const second = await pay(c, bill.id, 15_000);
    expect(second.bill).toMatchObject({ paidAmount: 25_000, status: "lunas" });

    const res = await reverse(c.bendahara.token, second.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: second.id,
      billId: bill.id,
      amount: 15_000,
      cashEntryId: second.cashEntryId,
      reversal: { by: c.bendahara.id, reason: "Transfer dibatalkan bank" },
      bill: { paidAmount: 10_000, outstanding: 15_000, status: "sebagian" },
    });

    // The cash book: the payment's entry stays as written, and the reversal is its linked opposite.
    const book = await cash(c);
    const reversal = book.items.find((e) => e.id === res.body.reversal?.cashEntryId);
    expect(reversal).toMatchObject({
      kind: "keluar",
      category: "Iuran kebersihan",
      amount: 15_000,
      date: "2026-04-10",
      source: "koreksi",
      sourceId: second.cashEntryId,
      reversesId: second.cashEntryId,
      note: "Pembatalan iuran Iuran kebersihan 2026-03: Transfer dibatalkan bank",
    });
    expect(book.items.find((e) => e.id === second.cashEntryId)).toMatchObject({
      kind: "masuk",
      amount: 15_000,
    });
    expect(book.closingBalance).toBe(10_000);

    // The staff bill list shows the payments, the reversed one marked, so the treasurer can find them.
    const [listed] = await bills(c, `period=2026-03&unitId=${c.home.unitId}`);
    expect(listed).toMatchObject({ paidAmount: 10_000, status: "sebagian" });
    expect(listed?.payments.map((p) => [p.id, p.reversal?.reason ?? null])).toEqual([
      [first.id, null],
      [second.id, "Transfer dibatalkan bank"],
    ]);

    // Reversing the other payment takes the bill back to belum, and it can be paid again.
    const again = await reverse(c.admin.token, first.id, { reason: "Salah tagihan, bukan rumah ini" });
    expect(again.status).toBe(200);
    expect(again.body.bill).toMatchObject({ paidAmount: 0, outstanding: 25_000, status: "belum" });
    expect((await cash(c)).closingBalance).toBe(0);
    expect((await pay(c, bill.id, 25_000)).bill).toMatchObject({ status: "lunas" });
    expect((await cash(c)).closingBalance).toBe(25_000);

    const audit = await callJson<{
      items: { targetId: string; actorId: string; detail: Record<string, unknown> }[];
    }>("/api/audit?action=iuran.payment.reverse", { token: c.admin.token });
    expect(audit.body.items.map((a) => a.targetId).sort()).toEqual([first.id, second.id].sort());
    expect(audit.body.items.find((a) => a.targetId === second.id)).toMatchObject({
      actorId: c.bendahara.id,
      detail: { billId: bill.id, amount: 15_000, reason: "Transfer dibatalkan bank" },
    });
  });

  it("reverses a payment once: a second call is 409 payment_already_reversed and changes nothing", async () => {
    const { c, bill } = await billed();
    const payment = await pay(c, bill.id, 25_000);
    expect((await reverse(c.bendahara.token, payment.id)).status).toBe(200);
    expectProblem(await reverse(c.bendahara.token, payment.id), 409, "payment_already_reversed");
    const book = await cash(c);
    expect(book.items.filter((e) => e.source === "koreksi")).toHaveLength(1);
    expect(book.closingBalance).toBe(0);
  });

  it("lets one of two concurrent reversals of the same payment through (the unique reverses_id decides)", async () => {
    const { c, bill } = await billed();
    await pay(c, bill.id, 10_000);
    const payment = await pay(c, bill.id, 15_000);
    const answers = await Promise.all([
      reverse(c.bendahara.token, payment.id),
      reverse(c.admin.token, payment.id, { reason: "Nominal salah" }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const lost = answers.find((a) => a.status === 409);
    if (!lost) {
      throw new Error("no reversal lost");
    }
    expectProblem(lost, 409, "payment_already_reversed");
    const book = await cash(c);
    expect(book.items.filter((e) => e.source === "koreksi")).toHaveLength(1);
    expect(book.closingBalance).toBe(10_000);
    expect((await bills(c, `unitId=${c.home.unitId}`))[0]).toMatchObject({
      paidAmount: 10_000,
      status: "sebagian",
    });
  });

  it("does not reverse an online payment: 409 online_payment_not_reversible (refunds happen at the gateway)", async () => {
    const gw = fakeGateways();
    const { c, bill } = await billed("2026-10");
    const started = await callJson<{ orderId: string }>(`/api/iuran/tagihan/${bill.id}/bayar-online`, {
      method: "POST",
      token: c.home.warga.token,
    });
    const orderId = started.body.orderId;
    gw.midtrans.set(orderId, { transaction_status: "settlement", gross_amount: "25000.00" });
    const notified = await postCallback(
      await midtransNotification(orderId, { transaction_status: "settlement", gross_amount: "25000.00" }),
    );
    expect(notified.status).toBe(200);
    const [paid] = await bills(c, `unitId=${c.home.unitId}`);
    const online = paid?.payments[0];
    expect(online).toMatchObject({ method: "online", amount: 25_000, reversal: null });

    expectProblem(await reverse(c.bendahara.token, online?.id ?? ""), 409, "online_payment_not_reversible");
    expect((await bills(c, `unitId=${c.home.unitId}`))[0]).toMatchObject({
      status: "lunas",
      paidAmount: 25_000,
    });
    expect((await cash(c)).closingBalance).toBe(25_000);
  });

  it("answers 404 for an unknown id and for another tenant's payment", async () => {
    const { c, bill } = await billed();
    const payment = await pay(c, bill.id, 25_000);
    expectProblem(await reverse(c.bendahara.token, "01JUNKNOWNPAYMENT000000000"), 404, "not_found");
    const other = await community();
    expectProblem(await reverse(other.bendahara.token, payment.id), 404, "not_found");
    expectProblem(await reverse(other.admin.token, payment.id), 404, "not_found");
    expect((await bills(c, `unitId=${c.home.unitId}`))[0]?.status).toBe("lunas");
  });

  it("is finance's: residents and the secretary get 403", async () => {
    const { c, bill } = await billed();
    const payment = await pay(c, bill.id, 25_000);
    expectProblem(await reverse(c.home.warga.token, payment.id), 403, "forbidden_role");
    expectProblem(await reverse(c.sek.token, payment.id), 403, "forbidden_role");
    expectProblem(await reverse("", payment.id), 401, "unauthorized");
    expect((await bills(c, `unitId=${c.home.unitId}`))[0]?.payments[0]?.reversal).toBeNull();
  });

  it("needs a reason: missing, empty or blank is 400 problem+json", async () => {
    const { c, bill } = await billed();
    const payment = await pay(c, bill.id, 25_000);
    for (const body of [{}, { reason: "" }, { reason: "   " }, { reason: 42 }]) {
      const res = await reverse(c.bendahara.token, payment.id, body);
      expectProblem(res, 400, "invalid_input");
    }
    expect((await cash(c)).closingBalance).toBe(25_000);
  });

  it("lists a page of bills with their payments in one tenant round trip", async () => {
    const { c, bill } = await billed();
    const first = await pay(c, bill.id, 10_000);
    const second = await pay(c, bill.id, 15_000);
    expect((await reverse(c.bendahara.token, second.id)).status).toBe(200);
    const slot = `TENANT_DB_${String(c.tenant.slot).padStart(2, "0")}`;
    const trips: string[][] = [];
    const env = { ...bindings, [slot]: countingD1(tenantD1(c.tenant), trips) } as typeof bindings;
    const res = await worker.fetch(
      new Request(`http://api.test/api/iuran/tagihan?unitId=${c.home.unitId}`, {
        headers: { Authorization: `Bearer ${c.bendahara.token}` },
      }),
      env,
      createExecutionContext(),
    );
    expect(res.status).toBe(200);
    const page = (await res.json()) as { items: Bill[] };
    expect(page.items[0]?.payments.map((p) => [p.id, p.reversal?.reason ?? null])).toEqual([
      [first.id, null],
      [second.id, "Transfer dibatalkan bank"],
    ]);
    expect(trips).toHaveLength(1);
  });

  it("lists a full page of 100 bills with their payments", async () => {
    const c = await community();
    for (let n = 1; n < 100; n++) {
      await callJson("/api/kependudukan/units", {
        token: c.sek.token,
        body: { block: "P", number: String(n) },
      });
    }
    await callJson("/api/iuran/jenis", {
      token: c.bendahara.token,
      body: { name: "Iuran kebersihan", amount: 25_000, basis: "unit", startPeriod: "2026-01" },
    });
    await callJson("/api/iuran/tagihan/generate", { token: c.bendahara.token, body: { period: "2026-03" } });
    const page = await bills(c, "period=2026-03");
    expect(page).toHaveLength(100);
    const last = page.at(-1) as Bill;
    const payment = await pay(c, last.id, 5_000);
    const again = await bills(c, "period=2026-03");
    expect(again.at(-1)?.payments.map((p) => p.id)).toEqual([payment.id]);
    expect(again.slice(0, -1).every((b) => b.payments.length === 0)).toBe(true);
  });

  it("keeps the payment's own cash entry out of the manual correction route", async () => {
    const { c, bill } = await billed();
    const payment = await pay(c, bill.id, 25_000);
    expectProblem(
      await callJson(`/api/kas/${payment.cashEntryId}/koreksi`, {
        token: c.bendahara.token,
        body: { reason: "Transfer dibatalkan bank" },
      }),
      409,
      "not_correctable",
    );
  });

  it("agrees with the monthly report: the reversal is in its month's spending and dues figures, the payment's month stays", async () => {
    const now = jakartaTime("2026-04-10");
    setNow(now);
    const month = "2026-04";
    const { c, bill } = await billed();
    const early = await pay(c, bill.id, 10_000);
    const late = await pay(c, bill.id, 15_000, now.toISOString());
    await reverse(c.bendahara.token, early.id);
    await reverse(c.bendahara.token, late.id);
    const report = async (bulan: string) =>
      (
        await callJson<Record<string, unknown>>(`/api/laporan/keuangan?bulan=${bulan}`, {
          token: c.sek.token,
        })
      ).body;

    // March as it was: the payment was received then; only the bill's own figures follow the reversal.
    expect(await report("2026-03")).toMatchObject({
      income: { total: 10_000, byCategory: [{ category: "Iuran kebersihan", amount: 10_000 }] },
      expense: { total: 0 },
      closingBalance: 10_000,
      dues: { billed: 25_000, collected: 0, receivedInMonth: 10_000, reversedInMonth: 0 },
      arrearsTotal: 25_000,
    });
    // This month: the late payment and both reversals; the balance is the cash book's.
    const current = await report(month);
    expect(current).toMatchObject({
      openingBalance: 10_000,
      income: { total: 15_000 },
      expense: { total: 25_000, byCategory: [{ category: "Iuran kebersihan", amount: 25_000 }] },
      closingBalance: 0,
      dues: { receivedInMonth: 15_000, reversedInMonth: 25_000 },
    });
    expect((await cash(c)).closingBalance).toBe(current.closingBalance);
  });
});
