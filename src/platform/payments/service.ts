import { and, desc, eq, inArray, isNull, lt } from "drizzle-orm";
import type { PlatformCtx, TenantCtx } from "../../core/context";
import { rowById } from "../../core/db/rows";
import { Conflict, Invalid, NotFound, Unauthorized, Unavailable } from "../../core/errors";
import { log } from "../../core/http/log";
import { newId } from "../../core/ids";
import { bindingsOf, systemTenantCtx } from "../../core/tenancy/system";
import { addDays, nowIso } from "../../core/time";
import { callbackRateLimit, UNVERIFIED_FIELD_MAX } from "./callbackLimits";
import { checkoutGateway, gatewayAdapter } from "./config";
import { paymentCallbacks, paymentOrders } from "./tables";
import type {
  CallbackClaim,
  GatewayAdapter,
  PaymentCustomer,
  PaymentKindHandler,
  PaymentOrder,
  PaymentOrderItem,
  PaymentOrderStatus,
} from "./types";

export interface CreatePaymentOrderInput {
  /** The registered kind (`PaymentKindHandler.kind`) whose handler applies the order when paid. */
  kind: string;
  /** The paying module's own row: an invoice id, a dues bill id. */
  refId: string;
  /** Integer rupiah, at least 1. */
  amount: number;
  /**
   * The rows one order pays, when more than one (several dues bills of a household, one gateway fee):
   * each with its share, the shares summing to `amount`. The handler reads them from `order.items`.
   */
  items?: readonly PaymentOrderItem[];
  description: string;
  customer: PaymentCustomer;
  /** When the checkout stops accepting payment; 24 hours from now unless given. */
  expiresAt?: Date;
  /** Where the gateway sends the payer back when done (a page of the app), given the order's id. */
  returnUrl?: (orderId: string) => string;
}

export interface StartedPayment {
  orderId: string;
  paymentUrl: string;
  expiresAt: string;
  gateway: PaymentOrder["gateway"];
}

const KIND_RE = /^[a-z]{2,12}$/;

type OrderRow = typeof paymentOrders.$inferSelect;

function toOrder(row: OrderRow): PaymentOrder {
  return {
    id: row.id,
    kind: row.kind,
    tenantId: row.tenantId,
    refId: row.refId,
    items: row.items ?? null,
    amount: row.amount,
    description: row.description,
    gateway: row.gateway,
    status: row.status,
    gatewayStatus: row.gatewayStatus,
    paymentReference: row.paymentReference,
    paymentUrl: row.paymentUrl,
    expiresAt: row.expiresAt,
    paidAt: row.paidAt,
    reversedAt: row.reversedAt,
    createdAt: row.createdAt,
  };
}

/**
 * Starts a payment in the caller's tenant: asks the configured gateway for a checkout and records the
 * order. The order id is `<kind>-<ULID>`, so the one callback route knows which module it pays.
 * 503 `payment_gateway_unavailable` when no gateway is configured or reachable.
 */
export async function createPaymentOrder(
  ctx: Pick<TenantCtx, "platform" | "env" | "config" | "now"> & {
    tenant: Pick<TenantCtx["tenant"], "id" | "slug">;
  },
  input: CreatePaymentOrderInput,
): Promise<StartedPayment> {
  if (!KIND_RE.test(input.kind)) {
    throw new Error(`payment kind must be 2-12 lowercase letters: ${input.kind}`);
  }
  if (!Number.isSafeInteger(input.amount) || input.amount < 1) {
    throw new Invalid("invalid_input", "A payment is a whole number of rupiah, at least 1.", [
      { field: "amount", message: "must be a positive integer" },
    ]);
  }
  if (
    input.items &&
    (input.items.length === 0 ||
      input.items.some((i) => !Number.isSafeInteger(i.amount) || i.amount < 1) ||
      input.items.reduce((sum, i) => sum + i.amount, 0) !== input.amount)
  ) {
    throw new Error("an order's items must be positive shares summing to its amount");
  }
  const gateway = checkoutGateway(ctx);
  const adapter = await gatewayAdapter(ctx, gateway);
  if (!adapter) {
    throw new Unavailable("payment_gateway_unavailable", "Online payment is not configured.");
  }
  const orderId = `${input.kind}-${newId()}`;
  const now = ctx.now();
  const expiresAt = input.expiresAt ?? addDays(now, 1);
  const checkout = await adapter.createCheckout({
    now,
    orderId,
    amount: input.amount,
    description: input.description,
    customer: input.customer,
    expiresAt,
    returnUrl: input.returnUrl?.(orderId),
  });
  // Recorded once the gateway has accepted it: nobody can pay before the URL is handed out, so no
  // callback can arrive before this row exists.
  await ctx.platform.insert(paymentOrders).values({
    id: orderId,
    kind: input.kind,
    tenantId: ctx.tenant.id,
    tenantSlug: ctx.tenant.slug,
    refId: input.refId,
    items: input.items ? input.items.map(({ refId, amount }) => ({ refId, amount })) : null,
    amount: input.amount,
    description: input.description,
    gateway,
    gatewayRef: checkout.gatewayRef,
    paymentUrl: checkout.paymentUrl,
    expiresAt: expiresAt.toISOString(),
    updatedAt: now.toISOString(),
  });
  return { orderId, paymentUrl: checkout.paymentUrl, expiresAt: expiresAt.toISOString(), gateway };
}

/** One of the caller's tenant's orders (another tenant's is 404). */
export async function paymentOrder(ctx: TenantCtx, orderId: string): Promise<PaymentOrder> {
  const row = await ctx.platform
    .select()
    .from(paymentOrders)
    .where(and(eq(paymentOrders.id, orderId), eq(paymentOrders.tenantId, ctx.tenant.id)))
    .get();
  if (!row) {
    throw new NotFound("Payment order", "payment_order_not_found");
  }
  return toOrder(row);
}

/** Every order made for one of the module's rows, newest first. */
export async function paymentOrdersFor(ctx: TenantCtx, kind: string, refId: string): Promise<PaymentOrder[]> {
  const rows = await ctx.platform
    .select()
    .from(paymentOrders)
    .where(
      and(
        eq(paymentOrders.kind, kind),
        eq(paymentOrders.refId, refId),
        eq(paymentOrders.tenantId, ctx.tenant.id),
      ),
    )
    .orderBy(desc(paymentOrders.id));
  return rows.map(toOrder);
}

export interface CallbackRecord {
  id: string;
  gateway: string;
  orderId: string | null;
  verified: boolean;
  claimedStatus: string | null;
  confirmedStatus: string | null;
  outcome: string;
  raw: string;
  receivedAt: string;
}

/** The callbacks received for one order (or all, newest first): the operator's view. */
export async function paymentCallbacksFor(
  ctx: PlatformCtx,
  filter: { orderIds?: string[]; limit: number; cursor?: string },
): Promise<CallbackRecord[]> {
  return ctx.platform
    .select()
    .from(paymentCallbacks)
    .where(
      and(
        filter.orderIds ? inArray(paymentCallbacks.orderId, filter.orderIds) : undefined,
        filter.cursor ? lt(paymentCallbacks.id, filter.cursor) : undefined,
      ),
    )
    .orderBy(desc(paymentCallbacks.id))
    .limit(filter.limit);
}

export interface GatewayCallback {
  headers: Headers;
  /** The body as received, kept verbatim once its signature verifies. */
  raw: string;
  body: Record<string, unknown>;
}

export interface CallbackResult {
  orderId: string;
  status: PaymentOrderStatus;
}

const NEXT_STATUS = {
  paid: { to: "paid", from: ["pending", "failed"] },
  failed: { to: "failed", from: ["pending"] },
  reversed: { to: "reversed", from: ["paid"] },
} as const satisfies Record<string, { to: PaymentOrderStatus; from: readonly PaymentOrderStatus[] }>;

type CallbackShape = "xendit" | "midtrans";
type CallbackSettleFields = { verified?: boolean; confirmedStatus?: string | null; raw?: string };

/** Step 1: rate-limits the callback and records its claimed fields; returns its shape, claimed order and `settle`. */
async function recordCallback(ctx: PlatformCtx, callback: GatewayCallback) {
  const shape: CallbackShape | null = callback.headers.has("x-callback-token")
    ? "xendit"
    : typeof callback.body.signature_key === "string"
      ? "midtrans"
      : null;
  const claimedOrderId = shape === "xendit" ? callback.body.external_id : callback.body.order_id;
  const claimedOrder =
    typeof claimedOrderId === "string" ? claimedOrderId.slice(0, UNVERIFIED_FIELD_MAX) : null;
  await callbackRateLimit(ctx.env, [
    { policy: "payment-callback:ip", subject: ctx.ip },
    { policy: "payment-callback:order", subject: claimedOrder },
  ]);
  const recordId = newId();
  const claimedStatus = shape === "xendit" ? callback.body.status : callback.body.transaction_status;
  await ctx.platform.insert(paymentCallbacks).values({
    id: recordId,
    gateway: shape ?? "unknown",
    orderId: claimedOrder,
    raw: "",
    verified: false,
    claimedStatus: shape ? String(claimedStatus ?? "").slice(0, UNVERIFIED_FIELD_MAX) : null,
    outcome: "received",
  });
  const settle = (outcome: string, fields: CallbackSettleFields = {}) =>
    ctx.platform
      .update(paymentCallbacks)
      .set({ outcome, ...fields })
      .where(eq(paymentCallbacks.id, recordId));
  return { shape, claimedOrderId, settle };
}

/**
 * `POST /api/payments/gateway/callback`. Every callback is hostile until proven otherwise:
 *
 * 1. it is counted per address and per claimed order (429 past either), then recorded before anything
 *    else, but only as the few fields it claims, truncated: the raw body is kept once the signature
 *    verifies, and unverified rows are pruned after a few hours (callbackLimits.ts, issue 31 N4);
 * 2. its order must exist (404 `payment_order_not_found`, logged) and its signature (Midtrans) or
 *    token (Xendit) must match the order's gateway, compared in constant time (401 `invalid_signature`);
 * 3. the state is never taken from the body: the gateway's status API is asked, and only its answer
 *    counts (the Midtrans signature does not even cover `transaction_status`);
 * 4. both the claimed and the confirmed amount must equal the order's (409 `amount_mismatch`);
 * 5. the order moves by a conditional write, so twenty deliveries change it once and nothing moves a
 *    paid order back to pending or failed (only a refund or chargeback reverses it);
 * 6. the kind's handler applies the change, and `applied_at` records that it finished: a change whose
 *    handler did not finish (a crash) is applied again by the next delivery.
 */
export async function receiveGatewayCallback(
  ctx: PlatformCtx,
  callback: GatewayCallback,
  handlers: readonly PaymentKindHandler[],
): Promise<CallbackResult> {
  const { shape, claimedOrderId, settle } = await recordCallback(ctx, callback);
  if (!shape || typeof claimedOrderId !== "string") {
    await settle("invalid_callback");
    throw new Invalid("invalid_callback", "This is not a payment notification this API understands.");
  }
  const row = await rowById(ctx.platform, paymentOrders, claimedOrderId);
  if (!row) {
    await settle("unknown_order");
    log("warn", "payment.callback_unknown_order", { gateway: shape, orderId: claimedOrderId.slice(0, 100) });
    throw new NotFound("Payment order", "payment_order_not_found");
  }
  const adapter = await gatewayAdapter(ctx, row.gateway);
  if (!adapter) {
    await settle("gateway_unconfigured");
    throw new Unavailable("payment_gateway_unavailable", `The ${row.gateway} gateway is not configured.`);
  }
  const shapeOfOrder = row.gateway === "xendit" ? "xendit" : "midtrans";
  if (shape !== shapeOfOrder || !(await adapter.verify(callback.headers, callback.body))) {
    await settle("bad_signature");
    log("warn", "payment.callback_bad_signature", { gateway: row.gateway, orderId: row.id });
    throw new Unauthorized("invalid_signature", "The notification's signature does not verify.");
  }
  // Verified: now the body is the gateway's, worth keeping whole for the operator.
  await settle("verified", { verified: true, raw: callback.raw });

  const claim: CallbackClaim = adapter.claim(callback.body);
  const confirmed = await adapter.fetchStatus({ id: row.id, gatewayRef: row.gatewayRef });
  const verified = { verified: true, confirmedStatus: confirmed.status };
  if (
    (claim.amount !== null && claim.amount !== row.amount) ||
    (confirmed.amount !== null && confirmed.amount !== row.amount)
  ) {
    await settle("amount_mismatch", verified);
    log("warn", "payment.callback_amount_mismatch", {
      orderId: row.id,
      expected: row.amount,
      claimed: claim.amount,
      confirmed: confirmed.amount,
    });
    throw new Conflict("amount_mismatch", "The paid amount does not equal the order's amount.");
  }
  if (confirmed.outcome === "pending") {
    await settle(confirmed.status === "not_found" ? "not_confirmed" : "pending", verified);
    return { orderId: row.id, status: row.status };
  }

  const step = NEXT_STATUS[confirmed.outcome];
  const now = nowIso(ctx);
  const moved = await ctx.platform
    .update(paymentOrders)
    .set({
      status: step.to,
      gatewayStatus: confirmed.status,
      appliedAt: null,
      updatedAt: now,
      ...(step.to === "paid" ? { paidAt: now, paymentReference: confirmed.reference } : {}),
      ...(step.to === "reversed" ? { reversedAt: now } : {}),
    })
    .where(and(eq(paymentOrders.id, row.id), inArray(paymentOrders.status, [...step.from])))
    .returning();
  const current = moved[0] ?? (await rowById(ctx.platform, paymentOrders, row.id)) ?? row;
  const pendingApply = current.status === step.to && current.appliedAt === null;
  if (!pendingApply) {
    await settle(moved.length ? "applied" : "no_change", verified);
    return { orderId: row.id, status: current.status };
  }
  await applyToModule(ctx, current, handlers);
  await ctx.platform
    .update(paymentOrders)
    .set({ appliedAt: nowIso(ctx) })
    .where(
      and(eq(paymentOrders.id, row.id), eq(paymentOrders.status, step.to), isNull(paymentOrders.appliedAt)),
    );
  await settle(moved.length ? "applied" : "reapplied", verified);
  return { orderId: row.id, status: current.status };
}

async function applyToModule(ctx: PlatformCtx, row: OrderRow, handlers: readonly PaymentKindHandler[]) {
  const handler = handlers.find((h) => h.kind === row.kind);
  if (!handler) {
    // Answering 500 makes the gateway retry; a deploy that brings the handler back applies it then.
    throw new Error(`no payment handler for kind ${row.kind}`);
  }
  const tenantCtx = await systemTenantCtx(bindingsOf(ctx), row.tenantSlug, `payment:${row.id}`);
  const order = toOrder(row);
  if (row.status === "paid") {
    await handler.onPaid(tenantCtx, order);
  } else if (row.status === "reversed") {
    await handler.onReversed?.(tenantCtx, order);
  } else if (row.status === "failed") {
    await handler.onFailed?.(tenantCtx, order);
  }
  log("info", "payment.applied", { orderId: row.id, kind: row.kind, status: row.status });
}

export type { GatewayAdapter };
