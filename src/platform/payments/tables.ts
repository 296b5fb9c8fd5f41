import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Payment orders live in the platform database: the gateway's callback names nothing but the order
 * id, so the order must be found before any tenant is known. One table serves every kind of payment
 * (subscription invoices, online dues); `kind` says which module's handler applies a settled order.
 */
export const PAYMENT_ORDER_STATUSES = ["pending", "paid", "failed", "reversed"] as const;
export type PaymentOrderStatus = (typeof PAYMENT_ORDER_STATUSES)[number];
export const PAYMENT_GATEWAYS = ["midtrans", "xendit", "simulator"] as const;
export type PaymentGatewayName = (typeof PAYMENT_GATEWAYS)[number];

/** One of the rows an order of several pays, and its share of the order's amount. */
export interface PaymentOrderItem {
  refId: string;
  amount: number;
}

export const paymentOrders = sqliteTable(
  "payment_orders",
  {
    /** The gateway's order id (Midtrans `order_id`, Xendit `external_id`): `<kind>-<ULID>`. */
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    tenantId: text("tenant_id").notNull(),
    tenantSlug: text("tenant_slug").notNull(),
    /** The paying module's own row (an invoice id, a dues bill id; a household for an order of many bills). */
    refId: text("ref_id").notNull(),
    /**
     * The module's rows one order pays, with each one's share of `amount` (which is their sum): several
     * dues bills of one household in one checkout, one gateway fee (issue 45). Null for one row (`refId`).
     */
    items: text("items", { mode: "json" }).$type<PaymentOrderItem[]>(),
    /** Integer rupiah; a callback for any other amount changes nothing. */
    amount: integer("amount").notNull(),
    description: text("description").notNull(),
    gateway: text("gateway", { enum: PAYMENT_GATEWAYS }).notNull(),
    /** The gateway's own id for the order where it has one (Xendit's invoice id, Snap's token). */
    gatewayRef: text("gateway_ref"),
    paymentUrl: text("payment_url").notNull(),
    status: text("status", { enum: PAYMENT_ORDER_STATUSES }).notNull().default("pending"),
    /** What the gateway last said (settlement, capture, PAID, expire, refund …), for the operator. */
    gatewayStatus: text("gateway_status"),
    /** The gateway's transaction id or payment reference once paid. */
    paymentReference: text("payment_reference"),
    expiresAt: text("expires_at").notNull(),
    paidAt: text("paid_at"),
    reversedAt: text("reversed_at"),
    /**
     * When the kind's handler last finished applying the current status. Null while a status change
     * has not been applied yet (a crash between the two): the next callback applies it again, and the
     * handler dedupes by order id.
     */
    appliedAt: text("applied_at"),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    index("payment_orders_ref_idx").on(t.kind, t.refId),
    index("payment_orders_tenant_idx").on(t.tenantId, t.id),
    index("payment_orders_status_idx").on(t.status, t.id),
  ],
);

/**
 * Every callback the route receives, as received: forged, unknown and replayed ones included, so an
 * operator can see what the gateway (or someone pretending to be it) sent and what came of it.
 */
export const paymentCallbacks = sqliteTable(
  "payment_callbacks",
  {
    id: text("id").primaryKey(),
    gateway: text("gateway").notNull(),
    /** The order id the body claims (null when there was none to read). */
    orderId: text("order_id"),
    raw: text("raw").notNull(),
    verified: integer("verified", { mode: "boolean" }).notNull(),
    /** What the callback claimed, and what the gateway's status API said when asked. */
    claimedStatus: text("claimed_status"),
    confirmedStatus: text("confirmed_status"),
    /** `applied`, `no_change`, `pending`, `unknown_order`, `bad_signature`, `amount_mismatch`, … */
    outcome: text("outcome").notNull(),
    receivedAt: text("received_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
  },
  (t) => [index("payment_callbacks_order_idx").on(t.orderId, t.id)],
);

/**
 * The local simulator's view of its transactions (ENVIRONMENT=local with no gateway keys): what its
 * status API answers. Empty everywhere else.
 */
export const paymentSimulations = sqliteTable("payment_simulations", {
  orderId: text("order_id").primaryKey(),
  grossAmount: integer("gross_amount").notNull(),
  transactionStatus: text("transaction_status").notNull(),
  transactionId: text("transaction_id").notNull(),
  updatedAt: text("updated_at").notNull(),
});
