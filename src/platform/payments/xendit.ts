import { Unavailable } from "../../core/errors";
import { timingSafeEqualText } from "../../core/ids";
import type {
  Checkout,
  CheckoutRequest,
  Fetcher,
  GatewayAdapter,
  GatewayStatus,
  PaymentOutcome,
} from "./types";

/**
 * Xendit Invoices (developers.xendit.co): `POST /v2/invoices` makes a hosted invoice and answers
 * `{ id, external_id, status: "PENDING", invoice_url, expiry_date, … }`; `GET /v2/invoices/{id}`
 * tells its state. HTTP Basic auth with the secret key and an empty password. Callbacks carry the
 * account's verification token in `x-callback-token`; their body is then confirmed by re-reading the
 * invoice, as with Midtrans.
 */
export const XENDIT_API = "https://api.xendit.co";

export interface XenditOptions {
  secretKey: string;
  callbackToken: string;
  fetch: Fetcher;
  apiBase?: string;
}

export function xenditOutcome(status: string): PaymentOutcome {
  switch (status) {
    case "PAID":
    case "SETTLED":
      return "paid";
    case "EXPIRED":
      return "failed";
    default:
      return "pending";
  }
}

const text = (value: unknown): string | null => (typeof value === "string" ? value : null);
const rupiah = (value: unknown): number | null =>
  typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : null;

export function xenditAdapter(options: XenditOptions): GatewayAdapter {
  const base = options.apiBase ?? XENDIT_API;
  const headers = {
    Accept: "application/json",
    "Content-Type": "application/json",
    Authorization: `Basic ${btoa(`${options.secretKey}:`)}`,
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
    name: "xendit",

    async createCheckout(request: CheckoutRequest): Promise<Checkout> {
      const seconds = Math.max(60, Math.ceil((request.expiresAt.getTime() - request.now.getTime()) / 1000));
      const res = await call(`${base}/v2/invoices`, {
        method: "POST",
        headers,
        body: JSON.stringify({
          external_id: request.orderId,
          amount: request.amount,
          currency: "IDR",
          description: request.description,
          invoice_duration: seconds,
          customer: {
            given_names: request.customer.name,
            ...(request.customer.email ? { email: request.customer.email } : {}),
            ...(request.customer.phone ? { mobile_number: request.customer.phone } : {}),
          },
          ...(request.customer.email ? { payer_email: request.customer.email } : {}),
          ...(request.returnUrl
            ? { success_redirect_url: request.returnUrl, failure_redirect_url: request.returnUrl }
            : {}),
        }),
      });
      const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
      if (!res.ok || typeof body?.invoice_url !== "string" || typeof body.id !== "string") {
        throw new Unavailable(
          "payment_gateway_error",
          `The payment gateway refused the order (HTTP ${res.status}${
            typeof body?.message === "string" ? `: ${body.message}` : ""
          }).`,
        );
      }
      return { paymentUrl: body.invoice_url, gatewayRef: body.id };
    },

    claim(body) {
      return {
        orderId: text(body.external_id),
        status: text(body.status),
        amount: rupiah(body.paid_amount) ?? rupiah(body.amount),
      };
    },

    async verify(headers): Promise<boolean> {
      const token = headers.get("x-callback-token");
      return token !== null && timingSafeEqualText(token, options.callbackToken);
    },

    async fetchStatus(order): Promise<GatewayStatus> {
      if (!order.gatewayRef) {
        return { outcome: "pending", status: "not_found", amount: null, reference: null };
      }
      const res = await call(`${base}/v2/invoices/${encodeURIComponent(order.gatewayRef)}`, {
        method: "GET",
        headers,
      });
      if (res.status === 404) {
        return { outcome: "pending", status: "not_found", amount: null, reference: null };
      }
      const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
      if (!res.ok || !body || typeof body.status !== "string") {
        throw new Unavailable(
          "payment_gateway_unavailable",
          `The payment gateway's invoice API answered HTTP ${res.status}.`,
        );
      }
      // An invoice that is not ours (another external id) is not evidence about our order.
      if (text(body.external_id) !== order.id) {
        return { outcome: "pending", status: "foreign_invoice", amount: null, reference: null };
      }
      return {
        outcome: xenditOutcome(body.status),
        status: body.status,
        amount: rupiah(body.amount),
        reference: text(body.payment_id) ?? text(body.id),
      };
    },
  };
}
