import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { TenantCtx } from "../../../src/core/context";
import { platformDb } from "../../../src/core/db/platform";
import { systemPlatformCtx } from "../../../src/core/tenancy/system";
import { checkoutGateway, createPaymentOrder, type PaymentKindHandler } from "../../../src/platform/payments";
import { receiveGatewayCallback } from "../../../src/platform/payments/service";
import { paymentCallbacks, paymentOrders } from "../../../src/platform/payments/tables";
import { memberCtx } from "../../helpers/contexts";
import { call, createTenant, expectProblem } from "../../helpers/harness";
import {
  bindings,
  type FakeGateways,
  fakeGateways,
  MIDTRANS_KEY,
  midtransNotification,
  postCallback,
  XENDIT_TOKEN,
} from "./gateway";

/** A module's handler as the tests see it: every call recorded. */
function recordingHandler() {
  const calls: { event: string; orderId: string; tenant: string }[] = [];
  const handler: PaymentKindHandler = {
    kind: "uji",
    async onPaid(ctx, order) {
      calls.push({ event: "paid", orderId: order.id, tenant: ctx.tenant.slug });
    },
    async onReversed(ctx, order) {
      calls.push({ event: "reversed", orderId: order.id, tenant: ctx.tenant.slug });
    },
    async onFailed(ctx, order) {
      calls.push({ event: "failed", orderId: order.id, tenant: ctx.tenant.slug });
    },
  };
  return { calls, handlers: [handler] };
}

const platformCtx = () => systemPlatformCtx(bindings, "test");

/** Delivers a callback through the verb with the test's handler (the route is exercised elsewhere). */
async function deliver(
  body: Record<string, unknown>,
  handlers: PaymentKindHandler[],
  headers: Record<string, string> = {},
) {
  return receiveGatewayCallback(
    platformCtx(),
    { headers: new Headers(headers), raw: JSON.stringify(body), body },
    handlers,
  );
}

const order = (id: string) =>
  platformDb(bindings).select().from(paymentOrders).where(eq(paymentOrders.id, id)).get();
const callbacksOf = (id: string) =>
  platformDb(bindings).select().from(paymentCallbacks).where(eq(paymentCallbacks.orderId, id));

let ctx: TenantCtx;
let gw: FakeGateways;

beforeAll(async () => {
  const tenant = await createTenant();
  const admin = await tenant.member("admin");
  ctx = await memberCtx(tenant.slug, admin, "admin");
});

afterEach(() => {
  vi.restoreAllMocks();
});

async function startOrder(amount = 150_000, kind = "uji", c: TenantCtx = ctx) {
  gw = fakeGateways();
  return createPaymentOrder(c, {
    kind,
    refId: "ref-1",
    amount,
    description: "Langganan Warga Dasar 1 bulan",
    customer: { name: "Budi Santoso", email: "budi@warga.test", phone: "+6281234567890" },
  });
}

describe("starting a payment", () => {
  it("creates a Snap transaction with the order id, amount and Basic auth of the server key", async () => {
    const started = await startOrder();
    expect(started.orderId).toMatch(/^uji-[0-9A-Z]{26}$/);
    expect(started.gateway).toBe("midtrans");
    expect(started.paymentUrl).toMatch(/^https:\/\/app\.sandbox\.midtrans\.com\/snap\/v4\/redirection\//);
    const [sent] = gw.sent;
    expect(sent?.method).toBe("POST");
    expect(sent?.url).toBe("https://app.sandbox.midtrans.com/snap/v1/transactions");
    expect(sent?.authorization).toBe(`Basic ${btoa(`${MIDTRANS_KEY}:`)}`);
    expect(sent?.body).toMatchObject({
      transaction_details: { order_id: started.orderId, gross_amount: 150_000 },
      customer_details: { first_name: "Budi", last_name: "Santoso", email: "budi@warga.test" },
      expiry: { unit: "minutes" },
    });
    expect((await order(started.orderId))?.status).toBe("pending");
  });

  it("creates a Xendit invoice when configured for Xendit", async () => {
    gw = fakeGateways();
    const xenditCtx = { ...ctx, env: { ...ctx.env, PAYMENT_GATEWAY: "xendit" } };
    const started = await createPaymentOrder(xenditCtx, {
      kind: "uji",
      refId: "ref-x",
      amount: 99_000,
      description: "Iuran kebersihan",
      customer: { name: "Siti", email: "siti@warga.test" },
    });
    expect(started.gateway).toBe("xendit");
    expect(started.paymentUrl).toMatch(/^https:\/\/checkout-staging\.xendit\.co\/web\//);
    expect(gw.sent[0]).toMatchObject({
      method: "POST",
      url: "https://api.xendit.co/v2/invoices",
      authorization: `Basic ${btoa("xnd_development_test_0123456789abcdef:")}`,
      body: {
        external_id: started.orderId,
        amount: 99_000,
        currency: "IDR",
        description: "Iuran kebersihan",
      },
    });
  });

  it("answers 503 when no gateway is configured outside local, and never falls back to the simulator", () => {
    const bare = {
      env: {
        ...ctx.env,
        MIDTRANS_SERVER_KEY: undefined,
        XENDIT_SECRET_KEY: undefined,
        XENDIT_CALLBACK_TOKEN: undefined,
      },
      config: { ...ctx.config, ENVIRONMENT: "production" as const },
    };
    expect(() => checkoutGateway(bare)).toThrow(/not configured/);
    expect(checkoutGateway({ ...bare, config: { ...bare.config, ENVIRONMENT: "local" } })).toBe("simulator");
    // Keys present in local: the real gateway, not the simulator.
    expect(checkoutGateway({ env: ctx.env, config: { ...ctx.config, ENVIRONMENT: "local" } })).toBe(
      "midtrans",
    );
  });
});

describe("the gateway callback", () => {
  it("refuses a forged signature with 401, changes nothing, and keeps the callback as unverified", async () => {
    const { orderId } = await startOrder();
    const forged = await midtransNotification(
      orderId,
      { transaction_status: "settlement", gross_amount: "150000.00" },
      "SB-Mid-server-guessed-key",
    );
    expectProblem(await postCallback(forged).then(asJson), 401, "invalid_signature");
    expect((await order(orderId))?.status).toBe("pending");
    const [kept] = await callbacksOf(orderId);
    expect(kept).toMatchObject({ verified: false, outcome: "bad_signature", gateway: "midtrans" });
    // Issue 31, N4: an unverified callback keeps only the fields it claims, never its raw body.
    expect(kept).toMatchObject({ orderId, claimedStatus: "settlement", raw: "" });
  });

  it("refuses a validly signed callback whose amount differs from the order's", async () => {
    const { orderId } = await startOrder();
    gw.midtrans.set(orderId, { transaction_status: "settlement", gross_amount: "1000.00" });
    const cheap = await midtransNotification(orderId, {
      transaction_status: "settlement",
      gross_amount: "1000.00",
    });
    expectProblem(await postCallback(cheap).then(asJson), 409, "amount_mismatch");
    expect((await order(orderId))?.status).toBe("pending");
    expect((await callbacksOf(orderId))[0]).toMatchObject({ verified: true, outcome: "amount_mismatch" });
  });

  it("acts on the status API, not on the body: a settlement the gateway calls pending pays nothing", async () => {
    const { calls, handlers } = recordingHandler();
    const { orderId } = await startOrder();
    const claim = await midtransNotification(orderId, {
      transaction_status: "settlement",
      gross_amount: "150000.00",
    });
    await expect(deliver(claim, handlers)).resolves.toEqual({ orderId, status: "pending" });
    expect(calls).toEqual([]);
    expect((await callbacksOf(orderId))[0]).toMatchObject({
      verified: true,
      claimedStatus: "settlement",
      confirmedStatus: "pending",
      outcome: "pending",
    });
    // The gateway's own status API lookup was the second request, after Snap.
    expect(gw.sent[1]).toMatchObject({
      method: "GET",
      url: `https://api.sandbox.midtrans.com/v2/${orderId}/status`,
      authorization: `Basic ${btoa(`${MIDTRANS_KEY}:`)}`,
    });
  });

  it("changes state once when the same settlement arrives 20 times", async () => {
    const { calls, handlers } = recordingHandler();
    const { orderId } = await startOrder();
    gw.midtrans.set(orderId, { transaction_status: "settlement", gross_amount: "150000.00" });
    const body = await midtransNotification(orderId, {
      transaction_status: "settlement",
      gross_amount: "150000.00",
    });
    for (let i = 0; i < 20; i++) {
      await expect(deliver(body, handlers)).resolves.toEqual({ orderId, status: "paid" });
    }
    expect(calls).toEqual([{ event: "paid", orderId, tenant: ctx.tenant.slug }]);
    const row = await order(orderId);
    expect(row).toMatchObject({
      status: "paid",
      gatewayStatus: "settlement",
      paymentReference: `tx-${orderId}`,
    });
    const kept = await callbacksOf(orderId);
    expect(kept).toHaveLength(20);
    expect(kept.filter((k) => k.outcome === "applied")).toHaveLength(1);
    expect(kept.filter((k) => k.outcome === "no_change")).toHaveLength(19);
  });

  it("never downgrades a paid order: settlement, then pending, then expire", async () => {
    const { calls, handlers } = recordingHandler();
    const { orderId } = await startOrder();
    gw.midtrans.set(orderId, { transaction_status: "settlement", gross_amount: "150000.00" });
    await deliver(
      await midtransNotification(orderId, { transaction_status: "settlement", gross_amount: "150000.00" }),
      handlers,
    );
    // Even a status API that now says otherwise does not move a paid order back.
    for (const late of ["pending", "expire"]) {
      gw.midtrans.set(orderId, { transaction_status: late, gross_amount: "150000.00" });
      const body = await midtransNotification(orderId, {
        transaction_status: late,
        gross_amount: "150000.00",
      });
      await expect(deliver(body, handlers)).resolves.toEqual({ orderId, status: "paid" });
    }
    expect((await order(orderId))?.status).toBe("paid");
    expect(calls.map((c) => c.event)).toEqual(["paid"]);
  });

  it("applies a paid order again after a crash left it unapplied, and a refund reverses it", async () => {
    const { calls, handlers } = recordingHandler();
    const { orderId } = await startOrder();
    gw.midtrans.set(orderId, { transaction_status: "settlement", gross_amount: "150000.00" });
    const body = await midtransNotification(orderId, {
      transaction_status: "settlement",
      gross_amount: "150000.00",
    });
    const crashing: PaymentKindHandler = {
      kind: "uji",
      onPaid: async () => {
        throw new Error("crash mid-apply");
      },
    };
    await expect(deliver(body, [crashing])).rejects.toThrow("crash mid-apply");
    expect((await order(orderId))?.appliedAt).toBeNull();
    await deliver(body, handlers);
    expect(calls.map((c) => c.event)).toEqual(["paid"]);
    expect((await callbacksOf(orderId)).map((k) => k.outcome)).toContain("reapplied");

    gw.midtrans.set(orderId, { transaction_status: "refund", gross_amount: "150000.00" });
    const refund = await midtransNotification(orderId, {
      transaction_status: "refund",
      gross_amount: "150000.00",
    });
    await expect(deliver(refund, handlers)).resolves.toEqual({ orderId, status: "reversed" });
    expect(calls.map((c) => c.event)).toEqual(["paid", "reversed"]);
    expect((await order(orderId))?.reversedAt).not.toBeNull();
  });

  it("marks a denied payment failed and still accepts a later settlement", async () => {
    const { calls, handlers } = recordingHandler();
    const { orderId } = await startOrder();
    gw.midtrans.set(orderId, { transaction_status: "deny", gross_amount: "150000.00" });
    await deliver(
      await midtransNotification(orderId, { transaction_status: "deny", gross_amount: "150000.00" }),
      handlers,
    );
    expect((await order(orderId))?.status).toBe("failed");
    gw.midtrans.set(orderId, { transaction_status: "settlement", gross_amount: "150000.00" });
    await deliver(
      await midtransNotification(orderId, { transaction_status: "settlement", gross_amount: "150000.00" }),
      handlers,
    );
    expect((await order(orderId))?.status).toBe("paid");
    expect(calls.map((c) => c.event)).toEqual(["failed", "paid"]);
  });

  it("answers 404 for an unknown order id, and keeps and logs the callback", async () => {
    gw = fakeGateways();
    const warn = vi.spyOn(console, "warn");
    const body = await midtransNotification("uji-01JUNKNOWNORDER000000000000", {
      transaction_status: "settlement",
      gross_amount: "150000.00",
    });
    expectProblem(await postCallback(body).then(asJson), 404, "payment_order_not_found");
    expect((await callbacksOf("uji-01JUNKNOWNORDER000000000000"))[0]).toMatchObject({
      outcome: "unknown_order",
    });
    expect(warn.mock.calls.flat().join(" ")).toContain("payment.callback_unknown_order");
    expect(gw.sent).toEqual([]);
  });

  it("refuses a Xendit callback with the wrong token, and applies one with the right token after re-reading the invoice", async () => {
    const { calls, handlers } = recordingHandler();
    gw = fakeGateways();
    const xenditCtx = { ...ctx, env: { ...ctx.env, PAYMENT_GATEWAY: "xendit" } };
    const { orderId } = await createPaymentOrder(xenditCtx, {
      kind: "uji",
      refId: "ref-x2",
      amount: 75_000,
      description: "Iuran",
      customer: { name: "Siti" },
    });
    const [invoiceId] = [...gw.xendit.keys()];
    const callback = {
      id: invoiceId,
      external_id: orderId,
      user_id: "5f9a3fbd571a1c4068aa40ce",
      is_high: false,
      status: "PAID",
      merchant_name: "Warga",
      amount: 75_000,
      paid_amount: 75_000,
      payment_method: "BANK_TRANSFER",
      currency: "IDR",
      paid_at: "2026-11-20T10:00:00.000Z",
    };
    expectProblem(
      await postCallback(callback, { "x-callback-token": "xendit-callback-token-guessed-000000" }).then(
        asJson,
      ),
      401,
      "invalid_signature",
    );
    // The token matches, but Xendit still says PENDING: nothing happens.
    await expect(deliver(callback, handlers, { "x-callback-token": XENDIT_TOKEN })).resolves.toEqual({
      orderId,
      status: "pending",
    });
    gw.xendit.set(invoiceId as string, { external_id: orderId, status: "PAID", amount: 75_000 });
    await expect(deliver(callback, handlers, { "x-callback-token": XENDIT_TOKEN })).resolves.toEqual({
      orderId,
      status: "paid",
    });
    expect(calls.map((c) => c.event)).toEqual(["paid"]);
    expect(gw.sent.at(-1)).toMatchObject({
      method: "GET",
      url: `https://api.xendit.co/v2/invoices/${invoiceId}`,
    });
    expect((await order(orderId))?.paymentReference).toBe(`pay-${invoiceId}`);
  });

  it("answers 400 for a body that is no gateway's notification", async () => {
    expectProblem(await postCallback({ hello: "world" }).then(asJson), 400, "invalid_callback");
  });
});

describe("the local simulator", () => {
  it("does not exist outside ENVIRONMENT=local", async () => {
    const res = await call("/dev/payments/uji-01JUNKNOWNORDER000000000000");
    expect(res.status).toBe(404);
    const post = await call("/dev/payments/uji-01JUNKNOWNORDER000000000000", {
      body: "result=settlement",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(post.status).toBe(404);
  });
});

async function asJson(res: Response) {
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}
