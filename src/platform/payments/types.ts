import type { TenantCtx } from "../../core/context";
import type { PaymentGatewayName, PaymentOrderItem, PaymentOrderStatus } from "./tables";

export type { PaymentGatewayName, PaymentOrderItem, PaymentOrderStatus } from "./tables";

/** `fetch` as the adapters call it; tests and the simulator answer it without the network. */
export type Fetcher = (input: string, init?: RequestInit) => Promise<Response>;

export interface CheckoutRequest {
  /** When the checkout is asked for, on the context's clock: the gateway's expiry counts from here. */
  now: Date;
  orderId: string;
  /** Integer rupiah. */
  amount: number;
  description: string;
  customer: PaymentCustomer;
  expiresAt: Date;
  /** Where the payer is sent back after paying or giving up (Snap's `callbacks.finish`). */
  returnUrl?: string;
}

export interface PaymentCustomer {
  name: string;
  email?: string | null;
  phone?: string | null;
}

export interface Checkout {
  /** Where the payer goes: Snap's `redirect_url`, Xendit's `invoice_url`, the simulator's page. */
  paymentUrl: string;
  /** The gateway's own id, needed to ask about the order later (Xendit's invoice id). */
  gatewayRef: string | null;
}

/** What a paid, pending, failed or reversed payment means to us, whatever the gateway calls it. */
export type PaymentOutcome = "paid" | "pending" | "failed" | "reversed";

/** The gateway's answer when asked about an order: the only status a callback is acted on by. */
export interface GatewayStatus {
  outcome: PaymentOutcome;
  /** The gateway's own word (`settlement`, `capture/challenge`, `PAID`, `not_found` …). */
  status: string;
  /** Integer rupiah as the gateway reports it; null when it reports none (an unknown order). */
  amount: number | null;
  reference: string | null;
}

/** What a callback body says about itself before anything is verified. */
export interface CallbackClaim {
  orderId: string | null;
  status: string | null;
  amount: number | null;
}

/** One payment gateway, over `fetch`. Midtrans Snap and Xendit Invoices implement it; so does the simulator. */
export interface GatewayAdapter {
  name: PaymentGatewayName;
  createCheckout(request: CheckoutRequest): Promise<Checkout>;
  claim(body: Record<string, unknown>): CallbackClaim;
  /** The callback's signature or token, compared in constant time. */
  verify(headers: Headers, body: Record<string, unknown>): Promise<boolean>;
  fetchStatus(order: { id: string; gatewayRef: string | null }): Promise<GatewayStatus>;
}

/** An order as the paying module sees it. */
export interface PaymentOrder {
  id: string;
  kind: string;
  tenantId: string;
  refId: string;
  /** The rows an order of several pays, each with its share of `amount`; null for one row (`refId`). */
  items: PaymentOrderItem[] | null;
  amount: number;
  description: string;
  gateway: PaymentGatewayName;
  status: PaymentOrderStatus;
  gatewayStatus: string | null;
  paymentReference: string | null;
  paymentUrl: string;
  expiresAt: string;
  paidAt: string | null;
  reversedAt: string | null;
  createdAt: string;
}

/**
 * What a module does when an order of its kind changes: declared as `payments` in its `defineModule`.
 * Each call may come more than once for one order (a retried callback after a crash, two deliveries
 * at once): dedupe by `order.id` or by a conditional write on your own row.
 */
export interface PaymentKindHandler {
  /** Lowercase letters, 2–12: the prefix of the order ids (`iuran-01J…`). */
  kind: string;
  onPaid(ctx: TenantCtx, order: PaymentOrder): Promise<void>;
  /** A refund or chargeback of a paid order. */
  onReversed?(ctx: TenantCtx, order: PaymentOrder): Promise<void>;
  /** The gateway reports the attempt failed (denied, cancelled, expired). */
  onFailed?(ctx: TenantCtx, order: PaymentOrder): Promise<void>;
}
