import { Unavailable } from "../../core/errors";
import { timingSafeEqualText } from "../../core/ids";
import type {
  CallbackClaim,
  Checkout,
  CheckoutRequest,
  Fetcher,
  GatewayAdapter,
  GatewayStatus,
  PaymentOutcome,
} from "./types";

/**
 * Midtrans Snap (docs.midtrans.com): `POST {app}/snap/v1/transactions` makes the checkout and answers
 * `{ token, redirect_url }`; `GET {api}/v2/{order_id}/status` tells an order's state; both with HTTP
 * Basic auth of the server key and an empty password. A notification carries `signature_key` =
 * SHA-512(order_id + status_code + gross_amount + server key), which does not cover
 * `transaction_status`: the status is therefore always re-read from the status API before acting.
 */
export const MIDTRANS_HOSTS = {
  sandbox: { app: "https://app.sandbox.midtrans.com", api: "https://api.sandbox.midtrans.com" },
  production: { app: "https://app.midtrans.com", api: "https://api.midtrans.com" },
} as const;

export interface MidtransOptions {
  serverKey: string;
  hosts: { app: string; api: string };
  fetch: Fetcher;
  /** `simulator` for the local stand-in, which speaks Midtrans with a local key. */
  name?: "midtrans" | "simulator";
}

export async function sha512Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-512", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The signature Midtrans puts on a notification (and on a status answer). */
export function midtransSignature(
  fields: { orderId: string; statusCode: string; grossAmount: string },
  serverKey: string,
): Promise<string> {
  return sha512Hex(`${fields.orderId}${fields.statusCode}${fields.grossAmount}${serverKey}`);
}

/** Midtrans writes rupiah as "150000.00"; anything that is not a whole number of rupiah is no amount. */
export function parseRupiah(value: unknown): number | null {
  const text = typeof value === "number" ? String(value) : value;
  if (typeof text !== "string") {
    return null;
  }
  const match = /^(\d{1,15})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match || (match[2] && Number(match[2]) !== 0)) {
    return null;
  }
  return Number(match[1]);
}

/** The transaction statuses of Midtrans's documentation, as our outcomes. */
export function midtransOutcome(status: string, fraudStatus: string | undefined): PaymentOutcome {
  switch (status) {
    case "settlement":
      return "paid";
    // A card capture is money only once the fraud check accepted it; `challenge` waits for review.
    case "capture":
      return fraudStatus === "accept" ? "paid" : fraudStatus === "deny" ? "failed" : "pending";
    case "deny":
    case "cancel":
    case "expire":
    case "failure":
      return "failed";
    case "refund":
    case "partial_refund":
    case "chargeback":
    case "partial_chargeback":
      return "reversed";
    default:
      return "pending";
  }
}

const text = (value: unknown): string | null => (typeof value === "string" ? value : null);

/** "2026-11-23 18:00:00 +0700": the form Snap's `expiry.start_time` takes. */
function snapTime(at: Date): string {
  const wib = new Date(at.getTime() + 7 * 3_600_000).toISOString();
  return `${wib.slice(0, 10)} ${wib.slice(11, 19)} +0700`;
}

/** The Snap `POST /snap/v1/transactions` body for one checkout: the order, its single item, the payer and the expiry. */
function snapTransactionBody(request: CheckoutRequest): Record<string, unknown> {
  const startsAt = request.now;
  const minutes = Math.max(1, Math.ceil((request.expiresAt.getTime() - startsAt.getTime()) / 60_000));
  const [firstName, ...rest] = request.customer.name.trim().split(/\s+/);
  return {
    transaction_details: { order_id: request.orderId, gross_amount: request.amount },
    item_details: [
      {
        id: request.orderId,
        price: request.amount,
        quantity: 1,
        name: request.description.slice(0, 50),
      },
    ],
    customer_details: {
      first_name: firstName ?? request.customer.name,
      ...(rest.length ? { last_name: rest.join(" ") } : {}),
      ...(request.customer.email ? { email: request.customer.email } : {}),
      ...(request.customer.phone ? { phone: request.customer.phone } : {}),
    },
    expiry: { start_time: snapTime(startsAt), unit: "minutes", duration: minutes },
    ...(request.returnUrl ? { callbacks: { finish: request.returnUrl } } : {}),
  };
}

export function midtransAdapter(options: MidtransOptions): GatewayAdapter {
  const authorization = `Basic ${btoa(`${options.serverKey}:`)}`;
  const headers = {
    Accept: "application/json",
    "Content-Type": "application/json",
    Authorization: authorization,
  };

  async function call(url: string, init: RequestInit): Promise<Response> {
    try {
      return await options.fetch(url, init);
    } catch (err) {
      throw new Unavailable(
        "payment_gateway_unavailable",
        `The payment gateway could not be reached (${err instanceof Error ? err.message : String(err)}).`,
      );
    }
  }

  return {
    name: options.name ?? "midtrans",

    async createCheckout(request: CheckoutRequest): Promise<Checkout> {
      const res = await call(`${options.hosts.app}/snap/v1/transactions`, {
        method: "POST",
        headers,
        body: JSON.stringify(snapTransactionBody(request)),
      });
      const body = (await res.json().catch(() => null)) as {
        token?: unknown;
        redirect_url?: unknown;
        error_messages?: unknown;
      } | null;
      if (!res.ok || typeof body?.redirect_url !== "string") {
        throw new Unavailable(
          "payment_gateway_error",
          `The payment gateway refused the order (HTTP ${res.status}${
            Array.isArray(body?.error_messages) ? `: ${body.error_messages.join("; ")}` : ""
          }).`,
        );
      }
      return { paymentUrl: body.redirect_url, gatewayRef: text(body.token) };
    },

    claim(body): CallbackClaim {
      return {
        orderId: text(body.order_id),
        status: text(body.transaction_status),
        amount: parseRupiah(body.gross_amount),
      };
    },

    async verify(_headers, body): Promise<boolean> {
      const orderId = text(body.order_id);
      const statusCode = text(body.status_code);
      const grossAmount = text(body.gross_amount);
      const signature = text(body.signature_key);
      if (!orderId || !statusCode || !grossAmount || !signature) {
        return false;
      }
      const expected = await midtransSignature({ orderId, statusCode, grossAmount }, options.serverKey);
      return timingSafeEqualText(signature.toLowerCase(), expected);
    },

    async fetchStatus(order): Promise<GatewayStatus> {
      const res = await call(`${options.hosts.api}/v2/${encodeURIComponent(order.id)}/status`, {
        method: "GET",
        headers,
      });
      const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
      // Midtrans answers an unknown order with status_code "404" (over HTTP 404 or 200): nothing to act on.
      if (res.status === 404 || text(body?.status_code) === "404") {
        return { outcome: "pending", status: "not_found", amount: null, reference: null };
      }
      if (!res.ok || !body || typeof body.transaction_status !== "string") {
        throw new Unavailable(
          "payment_gateway_unavailable",
          `The payment gateway's status API answered HTTP ${res.status}.`,
        );
      }
      const fraud = text(body.fraud_status) ?? undefined;
      return {
        outcome: midtransOutcome(body.transaction_status, fraud),
        status: fraud && body.transaction_status === "capture" ? `capture/${fraud}` : body.transaction_status,
        amount: parseRupiah(body.gross_amount),
        reference: text(body.transaction_id),
      };
    },
  };
}
