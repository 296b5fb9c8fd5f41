import { vi } from "vitest";
import { midtransSignature } from "../../../src/platform/payments";
import { bindings, call } from "../../helpers/harness";

/**
 * Midtrans (sandbox) and Xendit faked at the fetch boundary, with the shapes of their documentation:
 * Snap `POST /snap/v1/transactions` → 201 `{ token, redirect_url }`; `GET /v2/{order_id}/status` →
 * the transaction (or `status_code: "404"`); Xendit `POST /v2/invoices` → the invoice with
 * `invoice_url`; `GET /v2/invoices/{id}`. What each gateway "knows" is set by the test (`midtrans`,
 * `xendit`), so a test can make the status API agree with a callback or contradict it.
 */
export const MIDTRANS_KEY = "SB-Mid-server-test-0123456789abcdef";
export const XENDIT_KEY = "xnd_development_test_0123456789abcdef";
export const XENDIT_TOKEN = "xendit-callback-token-test-0123456789";

export interface Sent {
  method: string;
  url: string;
  authorization: string | null;
  body: Record<string, unknown> | null;
}

export interface FakeGateways {
  sent: Sent[];
  /** order id → what Midtrans's status API answers about it. */
  midtrans: Map<string, { transaction_status: string; gross_amount: string; fraud_status?: string }>;
  /** invoice id → what Xendit's invoice API answers. */
  xendit: Map<string, { external_id: string; status: string; amount: number }>;
}

export function fakeGateways(options: { passThrough?: boolean } = {}): FakeGateways {
  const state: FakeGateways = { sent: [], midtrans: new Map(), xendit: new Map() };
  const real = globalThis.fetch.bind(globalThis);
  const GATEWAYS = [
    "https://app.sandbox.midtrans.com",
    "https://api.sandbox.midtrans.com",
    "https://api.xendit.co",
  ];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (options.passThrough && !GATEWAYS.includes(url.origin)) {
      return real(request);
    }
    const text = await request.text();
    state.sent.push({
      method: request.method,
      url: request.url,
      authorization: request.headers.get("Authorization"),
      body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
    });
    if (url.origin === "https://app.sandbox.midtrans.com" && url.pathname === "/snap/v1/transactions") {
      const body = JSON.parse(text) as { transaction_details: { order_id: string; gross_amount: number } };
      const token = `66e4fa55-fdac-4ef9-91b5-${Math.random().toString(16).slice(2, 14)}`;
      state.midtrans.set(body.transaction_details.order_id, {
        transaction_status: "pending",
        gross_amount: `${body.transaction_details.gross_amount}.00`,
      });
      return Response.json(
        { token, redirect_url: `https://app.sandbox.midtrans.com/snap/v4/redirection/${token}` },
        { status: 201 },
      );
    }
    const status = /^\/v2\/([^/]+)\/status$/.exec(url.pathname);
    if (url.origin === "https://api.sandbox.midtrans.com" && status?.[1]) {
      const orderId = decodeURIComponent(status[1]);
      const tx = state.midtrans.get(orderId);
      if (!tx) {
        return Response.json(
          { status_code: "404", status_message: "Transaction doesn't exist." },
          { status: 404 },
        );
      }
      const statusCode = tx.transaction_status === "pending" ? "201" : "200";
      return Response.json({
        status_code: statusCode,
        status_message: "Success, transaction is found",
        transaction_id: `tx-${orderId}`,
        order_id: orderId,
        gross_amount: tx.gross_amount,
        currency: "IDR",
        payment_type: "bank_transfer",
        transaction_time: "2026-11-20 10:00:00",
        transaction_status: tx.transaction_status,
        fraud_status: tx.fraud_status ?? "accept",
        signature_key: await midtransSignature(
          { orderId, statusCode, grossAmount: tx.gross_amount },
          MIDTRANS_KEY,
        ),
      });
    }
    if (
      url.origin === "https://api.xendit.co" &&
      url.pathname === "/v2/invoices" &&
      request.method === "POST"
    ) {
      const body = JSON.parse(text) as { external_id: string; amount: number; description: string };
      const id = `65f${Math.random().toString(16).slice(2, 14)}`;
      state.xendit.set(id, { external_id: body.external_id, status: "PENDING", amount: body.amount });
      return Response.json({
        id,
        external_id: body.external_id,
        user_id: "5f9a3fbd571a1c4068aa40ce",
        status: "PENDING",
        merchant_name: "Warga",
        amount: body.amount,
        description: body.description,
        expiry_date: "2026-11-21T10:00:00.000Z",
        invoice_url: `https://checkout-staging.xendit.co/web/${id}`,
        currency: "IDR",
      });
    }
    const invoice = /^\/v2\/invoices\/([^/]+)$/.exec(url.pathname);
    if (url.origin === "https://api.xendit.co" && invoice?.[1]) {
      const inv = state.xendit.get(invoice[1]);
      if (!inv) {
        return Response.json(
          { error_code: "INVOICE_NOT_FOUND_ERROR", message: "Invoice not found" },
          { status: 404 },
        );
      }
      return Response.json({ id: invoice[1], ...inv, payment_id: `pay-${invoice[1]}`, currency: "IDR" });
    }
    throw new Error(`unexpected outbound call: ${request.method} ${request.url}`);
  });
  return state;
}

/** A Midtrans HTTP notification, signed with `key` (the test server key unless a forger's). */
export async function midtransNotification(
  orderId: string,
  fields: { transaction_status: string; gross_amount: string; status_code?: string; fraud_status?: string },
  key = MIDTRANS_KEY,
): Promise<Record<string, unknown>> {
  const statusCode = fields.status_code ?? (fields.transaction_status === "pending" ? "201" : "200");
  return {
    transaction_time: "2026-11-20 10:00:00",
    transaction_status: fields.transaction_status,
    transaction_id: `tx-${orderId}`,
    status_message: "midtrans payment notification",
    status_code: statusCode,
    signature_key: await midtransSignature({ orderId, statusCode, grossAmount: fields.gross_amount }, key),
    payment_type: "bank_transfer",
    order_id: orderId,
    merchant_id: "G123456789",
    gross_amount: fields.gross_amount,
    fraud_status: fields.fraud_status ?? "accept",
    currency: "IDR",
  };
}

/** Posts a notification to the real callback route, as the gateway would. */
export function postCallback(body: unknown, headers: Record<string, string> = {}) {
  return call("/api/payments/gateway/callback", { body, headers });
}

export { bindings };
