import { eq } from "drizzle-orm";
import type { PlatformCtx } from "../../core/context";
import type { PlatformDb } from "../../core/env";
import { newId, sha256Hex } from "../../core/ids";
import { type Clock, nowIso } from "../../core/time";
import { midtransSignature } from "./midtrans";
import { paymentSimulations } from "./tables";
import type { Fetcher } from "./types";

/**
 * The local stand-in for Midtrans, so `npm run dev` (no internet) can click through invoice → pay →
 * callback → paid. It exists only with ENVIRONMENT=local and no gateway keys: it answers Snap's
 * create and status calls itself (no request leaves the Worker), and its page (src/pages/dev-payments.ts)
 * posts a Midtrans-shaped notification signed with a key derived from the local INTERNAL_API_KEY,
 * which goes through the same callback route and checks as the real gateway's.
 */
export const SIMULATOR_HOSTS = {
  app: "https://simulator.payments.invalid",
  api: "https://simulator.payments.invalid",
} as const;

export function simulatorEnabled(ctx: Pick<PlatformCtx, "env" | "config">): boolean {
  return (
    ctx.config.ENVIRONMENT === "local" &&
    !ctx.env.MIDTRANS_SERVER_KEY &&
    !ctx.env.XENDIT_SECRET_KEY &&
    !ctx.env.XENDIT_CALLBACK_TOKEN
  );
}

export async function simulatorServerKey(env: Pick<PlatformCtx["env"], "INTERNAL_API_KEY">): Promise<string> {
  return `SIM-server-${await sha256Hex(`warga-payment-simulator:${env.INTERNAL_API_KEY}`)}`;
}

/** The simulator page's query parameter carrying where the payer goes back to (Snap's `callbacks.finish`). */
export const RETURN_PARAM = "kembali";

const STATUS_CODES: Record<string, string> = {
  settlement: "200",
  capture: "200",
  pending: "201",
  deny: "202",
  cancel: "200",
  expire: "407",
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

type Simulation = typeof paymentSimulations.$inferSelect;

async function notificationOf(sim: Simulation, serverKey: string): Promise<Record<string, unknown>> {
  const statusCode = STATUS_CODES[sim.transactionStatus] ?? "200";
  const grossAmount = `${sim.grossAmount}.00`;
  return {
    transaction_time: sim.updatedAt.replace("T", " ").slice(0, 19),
    transaction_status: sim.transactionStatus,
    transaction_id: sim.transactionId,
    status_message: "midtrans payment notification",
    status_code: statusCode,
    signature_key: await midtransSignature({ orderId: sim.orderId, statusCode, grossAmount }, serverKey),
    payment_type: "bank_transfer",
    order_id: sim.orderId,
    merchant_id: "WARGA-SIMULATOR",
    gross_amount: grossAmount,
    fraud_status: "accept",
    currency: "IDR",
  };
}

/**
 * Answers the Snap and status calls the Midtrans adapter makes, from `payment_simulations`, on the clock
 * of the context that asked for the adapter.
 */
export function simulatorFetch(
  platform: PlatformDb,
  appUrl: string,
  serverKey: string,
  clock: Clock,
): Fetcher {
  return async (input, init) => {
    const url = new URL(input);
    if (init?.method === "POST" && url.pathname === "/snap/v1/transactions") {
      const body = JSON.parse(String(init.body)) as {
        transaction_details: { order_id: string; gross_amount: number };
        callbacks?: { finish?: string };
      };
      const orderId = body.transaction_details.order_id;
      await platform
        .insert(paymentSimulations)
        .values({
          orderId,
          grossAmount: body.transaction_details.gross_amount,
          transactionStatus: "pending",
          transactionId: newId(),
          updatedAt: nowIso(clock),
        })
        .onConflictDoNothing();
      // Snap sends the payer to `callbacks.finish` when done; the simulator's page offers it as a link.
      const page = `${appUrl.replace(/\/$/, "")}/dev/payments/${encodeURIComponent(orderId)}`;
      const finish = body.callbacks?.finish;
      return json(201, {
        token: `sim-${orderId}`,
        redirect_url: finish ? `${page}?${RETURN_PARAM}=${encodeURIComponent(finish)}` : page,
      });
    }
    const status = /^\/v2\/([^/]+)\/status$/.exec(url.pathname);
    if (status?.[1]) {
      const orderId = decodeURIComponent(status[1]);
      const sim = await platform
        .select()
        .from(paymentSimulations)
        .where(eq(paymentSimulations.orderId, orderId))
        .get();
      if (!sim) {
        return json(404, { status_code: "404", status_message: "Transaction doesn't exist." });
      }
      return json(200, await notificationOf(sim, serverKey));
    }
    return json(404, { status_code: "404", status_message: "Unknown simulator endpoint." });
  };
}

/** The simulator's transaction for an order, for its page. */
export function simulation(
  ctx: Pick<PlatformCtx, "platform">,
  orderId: string,
): Promise<Simulation | undefined> {
  return ctx.platform.select().from(paymentSimulations).where(eq(paymentSimulations.orderId, orderId)).get();
}

/**
 * The payer pressed "Bayar" (settlement) or "Gagal" (deny): the simulator's status API now says so,
 * and this is the signed notification Midtrans would send about it.
 */
export async function simulateResult(
  ctx: Pick<PlatformCtx, "platform" | "env" | "now">,
  orderId: string,
  result: "settlement" | "deny",
): Promise<Record<string, unknown> | null> {
  const [sim] = await ctx.platform
    .update(paymentSimulations)
    .set({ transactionStatus: result, updatedAt: nowIso(ctx) })
    .where(eq(paymentSimulations.orderId, orderId))
    .returning();
  return sim ? notificationOf(sim, await simulatorServerKey(ctx.env)) : null;
}
