import { createExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { buildApp } from "../../../src/app";
import type { Bindings } from "../../../src/core/env";
import { bindings, callJson, createTenant, expectProblem } from "../../helpers/harness";
import { fakeGateways, midtransNotification, postCallback } from "../billing/gateway";
import { household } from "../surat/helpers";

/**
 * Issue 14, online dues: a resident pays through the shared gateway adapter (Midtrans faked at the fetch
 * boundary with its documented shapes), and the gateway's callback marks the bill paid exactly once.
 */
afterEach(() => {
  vi.restoreAllMocks();
});

interface Bill {
  id: string;
  unitId: string;
  status: string;
  paidAmount: number;
}

async function billedHousehold() {
  const tenant = await createTenant();
  const home = await household(tenant);
  const bendahara = await tenant.member("bendahara");
  const type = await callJson("/api/iuran/jenis", {
    token: bendahara.token,
    body: { name: "Iuran keamanan", amount: 50_000, basis: "unit", startPeriod: "2026-01" },
  });
  expect(type.status).toBe(201);
  await callJson("/api/iuran/tagihan/generate", { token: bendahara.token, body: { period: "2026-10" } });
  const bills = await callJson<{ items: Bill[] }>(`/api/iuran/tagihan?unitId=${home.unitId}`, {
    token: bendahara.token,
  });
  const bill = bills.body.items[0];
  if (!bill) {
    throw new Error("no bill");
  }
  return { tenant, home, bendahara, bill };
}

describe("paying dues online", () => {
  it("hands the resident a checkout for what is outstanding, and the same one when asked again", async () => {
    const gw = fakeGateways();
    const { home, bendahara, bill } = await billedHousehold();
    await callJson(`/api/iuran/tagihan/${bill.id}/pembayaran`, {
      token: bendahara.token,
      body: { amount: 20_000, method: "tunai", paidAt: "2026-10-03T02:00:00.000Z" },
    });
    const first = await callJson<{ orderId: string; paymentUrl: string; amount: number }>(
      `/api/iuran/tagihan/${bill.id}/bayar-online`,
      { method: "POST", token: home.warga.token },
    );
    expect(first.status).toBe(200);
    expect(first.body.amount).toBe(30_000);
    expect(first.body.orderId).toMatch(/^iuran-/);
    expect(first.body.paymentUrl).toMatch(/^https:\/\/app\.sandbox\.midtrans\.com\/snap\/v4\/redirection\//);
    const snap = gw.sent.find((s) => s.url.endsWith("/snap/v1/transactions"));
    expect(snap?.body).toMatchObject({
      transaction_details: { order_id: first.body.orderId, gross_amount: 30_000 },
    });
    const again = await callJson<{ orderId: string }>(`/api/iuran/tagihan/${bill.id}/bayar-online`, {
      method: "POST",
      token: home.warga.token,
    });
    expect(again.body.orderId).toBe(first.body.orderId);
    expect(gw.sent.filter((s) => s.url.endsWith("/snap/v1/transactions"))).toHaveLength(1);

    const neighbour = await household(home.tenant);
    expectProblem(
      await callJson(`/api/iuran/tagihan/${bill.id}/bayar-online`, {
        method: "POST",
        token: neighbour.warga.token,
      }),
      404,
      "not_found",
    );
    expectProblem(
      await callJson(`/api/iuran/tagihan/${bill.id}/bayar-online`, {
        method: "POST",
        token: bendahara.token,
      }),
      403,
      "forbidden_role",
    );
  });

  it("pays the bill exactly once however many callbacks arrive, posting one cash-book entry", async () => {
    const gw = fakeGateways();
    const { home, bendahara, bill } = await billedHousehold();
    const started = await callJson<{ orderId: string }>(`/api/iuran/tagihan/${bill.id}/bayar-online`, {
      method: "POST",
      token: home.warga.token,
    });
    const orderId = started.body.orderId;
    gw.midtrans.set(orderId, { transaction_status: "settlement", gross_amount: "50000.00" });
    const body = await midtransNotification(orderId, {
      transaction_status: "settlement",
      gross_amount: "50000.00",
    });
    const answers = await Promise.all(Array.from({ length: 20 }, () => postCallback(body)));
    expect(answers.every((res) => res.status === 200)).toBe(true);

    const mine = await callJson<{ items: Bill[]; totals: { outstanding: number } }>("/api/iuran/mine", {
      token: home.warga.token,
    });
    expect(mine.body.items.find((b) => b.id === bill.id)).toMatchObject({
      status: "lunas",
      paidAmount: 50_000,
    });
    expect(mine.body.totals.outstanding).toBe(0);
    const book = await callJson<{ items: { source: string; amount: number }[]; closingBalance: number }>(
      "/api/kas",
      {
        token: bendahara.token,
      },
    );
    expect(book.body.items.filter((e) => e.source === "iuran")).toEqual([
      expect.objectContaining({ amount: 50_000 }),
    ]);
    expect(book.body.closingBalance).toBe(50_000);
    expectProblem(
      await callJson(`/api/iuran/tagihan/${bill.id}/bayar-online`, {
        method: "POST",
        token: home.warga.token,
      }),
      409,
      "bill_paid",
    );
  });

  it("sends the payer back to the app's dues screen, and lists the payment as the household's receipt", async () => {
    const gw = fakeGateways();
    const { home, bill } = await billedHousehold();
    const started = await callJson<{ orderId: string }>(`/api/iuran/tagihan/${bill.id}/bayar-online`, {
      method: "POST",
      token: home.warga.token,
    });
    const orderId = started.body.orderId;
    const snap = gw.sent.find((s) => s.url.endsWith("/snap/v1/transactions"));
    const finish = ((snap?.body ?? {}) as { callbacks?: { finish?: string } }).callbacks?.finish ?? "";
    expect(new URL(finish).pathname).toBe("/iuran");
    expect(new URL(finish).searchParams.get("bayar")).toBe(orderId);

    gw.midtrans.set(orderId, { transaction_status: "settlement", gross_amount: "50000.00" });
    const body = await midtransNotification(orderId, {
      transaction_status: "settlement",
      gross_amount: "50000.00",
    });
    expect((await postCallback(body)).status).toBe(200);
    const mine = await callJson<{ items: (Bill & { payments: unknown[] })[] }>("/api/iuran/mine", {
      token: home.warga.token,
    });
    expect(mine.body.items.find((b) => b.id === bill.id)?.payments).toEqual([
      {
        id: expect.any(String),
        amount: 50_000,
        method: "online",
        paidAt: expect.any(String),
        orderId,
        reversed: false,
      },
    ]);
  });

  it("the local simulator's page links back to the app, and to nowhere else", async () => {
    const { home, bill } = await billedHousehold();
    const local = {
      ...bindings,
      ENVIRONMENT: "local",
      APP_URL: "http://127.0.0.1:8787",
      CLIENT_URL: undefined,
      MIDTRANS_SERVER_KEY: undefined,
      XENDIT_SECRET_KEY: undefined,
      XENDIT_CALLBACK_TOKEN: undefined,
    } as unknown as Bindings;
    const app = buildApp();
    const at = (path: string, init: RequestInit = {}) =>
      app.fetch(new Request(`http://127.0.0.1:8787${path}`, init), local, createExecutionContext());
    const res = await at(`/api/iuran/tagihan/${bill.id}/bayar-online`, {
      method: "POST",
      headers: { Authorization: `Bearer ${home.warga.token}`, "Idempotency-Key": crypto.randomUUID() },
    });
    expect(res.status).toBe(200);
    const { orderId, paymentUrl } = (await res.json()) as { orderId: string; paymentUrl: string };
    const url = new URL(paymentUrl);
    expect(url.searchParams.get("kembali")).toBe(`http://127.0.0.1:8787/iuran?bayar=${orderId}`);
    const page = await (await at(`${url.pathname}${url.search}`)).text();
    expect(page).toContain(`href="http://127.0.0.1:8787/iuran?bayar=${orderId}"`);
    expect(page).toContain("Kembali ke aplikasi");
    // Paying keeps the way back; a link elsewhere is never offered.
    const paid = await at(`${url.pathname}${url.search}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "result=settlement",
    });
    expect(await paid.text()).toContain("Kembali ke aplikasi");
    const foreign = await at(`${url.pathname}?kembali=${encodeURIComponent("https://evil.example/iuran")}`);
    const text = await foreign.text();
    expect(foreign.status).toBe(200);
    expect(text).not.toContain("evil.example");
    expect(text).not.toContain("Kembali ke aplikasi");
  });
});

/** Issue 45: a household with three open months, for one checkout of several bills. */
async function threeMonths() {
  const tenant = await createTenant();
  const home = await household(tenant);
  const bendahara = await tenant.member("bendahara");
  await callJson("/api/iuran/jenis", {
    token: bendahara.token,
    body: { name: "Iuran keamanan", amount: 50_000, basis: "unit", startPeriod: "2026-01" },
  });
  for (const period of ["2026-08", "2026-09", "2026-10"]) {
    await callJson("/api/iuran/tagihan/generate", { token: bendahara.token, body: { period } });
  }
  const list = await callJson<{ items: Bill[] }>(`/api/iuran/tagihan?unitId=${home.unitId}`, {
    token: bendahara.token,
  });
  expect(list.body.items).toHaveLength(3);
  return { tenant, home, bendahara, bills: list.body.items };
}

describe("paying several months in one checkout (issue 45)", () => {
  it("opens ONE order for the household's bills and pays all of them on its callback, once", async () => {
    const gw = fakeGateways();
    const { home, bendahara, bills } = await threeMonths();
    const billIds = bills.map((b) => b.id);
    const started = await callJson<{ orderId: string; amount: number; items: { billId: string }[] }>(
      "/api/iuran/bayar-online",
      { token: home.warga.token, body: { billIds } },
    );
    expect(started.status).toBe(200);
    expect(started.body.amount).toBe(150_000);
    expect(started.body.items.map((i) => i.billId).sort()).toEqual([...billIds].sort());
    const again = await callJson<{ orderId: string }>("/api/iuran/bayar-online", {
      token: home.warga.token,
      body: { billIds: [...billIds].reverse() },
    });
    expect(again.body.orderId).toBe(started.body.orderId);
    const snaps = gw.sent.filter((s) => s.url.endsWith("/snap/v1/transactions"));
    expect(snaps).toHaveLength(1);
    expect(snaps[0]?.body).toMatchObject({
      transaction_details: { order_id: started.body.orderId, gross_amount: 150_000 },
    });

    const orderId = started.body.orderId;
    gw.midtrans.set(orderId, { transaction_status: "settlement", gross_amount: "150000.00" });
    const body = await midtransNotification(orderId, {
      transaction_status: "settlement",
      gross_amount: "150000.00",
    });
    const answers = await Promise.all(Array.from({ length: 5 }, () => postCallback(body)));
    expect(answers.every((res) => res.status === 200)).toBe(true);
    const mine = await callJson<{ items: (Bill & { payments: { orderId: string }[] })[] }>(
      "/api/iuran/mine",
      { token: home.warga.token },
    );
    for (const id of billIds) {
      const bill = mine.body.items.find((b) => b.id === id);
      expect(bill).toMatchObject({ status: "lunas", paidAmount: 50_000 });
      expect(bill?.payments).toEqual([expect.objectContaining({ orderId, amount: 50_000 })]);
    }
    const book = await callJson<{ items: { source: string; amount: number }[] }>("/api/kas", {
      token: bendahara.token,
    });
    expect(book.body.items.filter((e) => e.source === "iuran").map((e) => e.amount)).toEqual([
      50_000, 50_000, 50_000,
    ]);
    const arrears = await callJson<{ totals: { owed: number } }>("/api/iuran/tunggakan", {
      token: bendahara.token,
    });
    expect(arrears.body.totals.owed).toBe(0);
  });

  it("refuses another household's, another tenant's and a paid bill, and an empty choice", async () => {
    fakeGateways();
    const { home, bendahara, bills } = await threeMonths();
    const [first, second] = bills as [Bill, Bill];
    const neighbour = await household(home.tenant);
    await callJson("/api/iuran/tagihan/generate", { token: bendahara.token, body: { period: "2026-11" } });
    const theirs = await callJson<{ items: Bill[] }>(`/api/iuran/tagihan?unitId=${neighbour.unitId}`, {
      token: bendahara.token,
    });
    const theirBill = theirs.body.items[0] as Bill;
    expectProblem(
      await callJson("/api/iuran/bayar-online", {
        token: home.warga.token,
        body: { billIds: [first.id, theirBill.id] },
      }),
      404,
      "not_found",
    );
    const elsewhere = await threeMonths();
    expectProblem(
      await callJson("/api/iuran/bayar-online", {
        token: home.warga.token,
        body: { billIds: [first.id, (elsewhere.bills[0] as Bill).id] },
      }),
      404,
      "not_found",
    );
    await callJson(`/api/iuran/tagihan/${second.id}/pembayaran`, {
      token: bendahara.token,
      body: { amount: 50_000, method: "tunai", paidAt: "2026-10-03T02:00:00.000Z" },
    });
    expectProblem(
      await callJson("/api/iuran/bayar-online", {
        token: home.warga.token,
        body: { billIds: [first.id, second.id] },
      }),
      409,
      "bill_paid",
    );
    expectProblem(
      await callJson("/api/iuran/bayar-online", { token: home.warga.token, body: { billIds: [] } }),
      400,
      "invalid_input",
    );
    expectProblem(
      await callJson("/api/iuran/bayar-online", { token: bendahara.token, body: { billIds: [first.id] } }),
      403,
      "forbidden_role",
    );
  });

  it("a bill settled in cash meanwhile keeps its cash payment; the order pays the others", async () => {
    const gw = fakeGateways();
    const { home, bendahara, bills } = await threeMonths();
    const [first, second, third] = bills as [Bill, Bill, Bill];
    const started = await callJson<{ orderId: string }>("/api/iuran/bayar-online", {
      token: home.warga.token,
      body: { billIds: [first.id, second.id, third.id] },
    });
    await callJson(`/api/iuran/tagihan/${second.id}/pembayaran`, {
      token: bendahara.token,
      body: { amount: 50_000, method: "tunai", paidAt: "2026-10-03T02:00:00.000Z" },
    });
    const orderId = started.body.orderId;
    gw.midtrans.set(orderId, { transaction_status: "settlement", gross_amount: "150000.00" });
    const body = await midtransNotification(orderId, {
      transaction_status: "settlement",
      gross_amount: "150000.00",
    });
    expect((await postCallback(body)).status).toBe(200);
    const staffList = await callJson<{ items: (Bill & { payments: { method: string }[] })[] }>(
      `/api/iuran/tagihan?unitId=${home.unitId}`,
      { token: bendahara.token },
    );
    const byId = new Map(staffList.body.items.map((b) => [b.id, b]));
    expect(byId.get(first.id)).toMatchObject({ status: "lunas", payments: [{ method: "online" }] });
    expect(byId.get(third.id)).toMatchObject({ status: "lunas", payments: [{ method: "online" }] });
    expect(byId.get(second.id)).toMatchObject({ status: "lunas", payments: [{ method: "tunai" }] });
  });
});
