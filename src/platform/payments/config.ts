import type { PlatformCtx } from "../../core/context";
import { Unavailable } from "../../core/errors";
import { MIDTRANS_HOSTS, midtransAdapter } from "./midtrans";
import { SIMULATOR_HOSTS, simulatorEnabled, simulatorFetch, simulatorServerKey } from "./simulator";
import type { Fetcher, GatewayAdapter, PaymentGatewayName } from "./types";
import { xenditAdapter } from "./xendit";

// Read at call time, so a test's fake `fetch` (vi.spyOn(globalThis, "fetch")) is the one used.
const networkFetch: Fetcher = (input, init) => fetch(input, init);

/**
 * The gateway new orders go to: `PAYMENT_GATEWAY` (`midtrans` unless it says `xendit`) when that
 * gateway's keys are set; the local simulator when no gateway has keys and ENVIRONMENT is local;
 * otherwise none, and starting a payment is 503 rather than a checkout nobody can complete.
 */
export function checkoutGateway(ctx: Pick<PlatformCtx, "env" | "config">): PaymentGatewayName {
  if (simulatorEnabled(ctx)) {
    return "simulator";
  }
  const wanted = ctx.env.PAYMENT_GATEWAY === "xendit" ? "xendit" : "midtrans";
  if (wanted === "midtrans" && ctx.env.MIDTRANS_SERVER_KEY) {
    return "midtrans";
  }
  if (wanted === "xendit" && ctx.env.XENDIT_SECRET_KEY && ctx.env.XENDIT_CALLBACK_TOKEN) {
    return "xendit";
  }
  throw new Unavailable(
    "payment_gateway_unavailable",
    `Online payment is not configured (${wanted} has no keys).`,
  );
}

/**
 * The adapter for orders made through `gateway`, or null when that gateway is no longer configured.
 * Callbacks use the order's own gateway, so switching PAYMENT_GATEWAY leaves open orders payable.
 */
export async function gatewayAdapter(
  ctx: Pick<PlatformCtx, "env" | "config" | "platform" | "now">,
  gateway: PaymentGatewayName,
): Promise<GatewayAdapter | null> {
  switch (gateway) {
    case "midtrans":
      return ctx.env.MIDTRANS_SERVER_KEY
        ? midtransAdapter({
            serverKey: ctx.env.MIDTRANS_SERVER_KEY,
            hosts: ctx.env.MIDTRANS_ENV === "production" ? MIDTRANS_HOSTS.production : MIDTRANS_HOSTS.sandbox,
            fetch: networkFetch,
          })
        : null;
    case "xendit":
      return ctx.env.XENDIT_SECRET_KEY && ctx.env.XENDIT_CALLBACK_TOKEN
        ? xenditAdapter({
            secretKey: ctx.env.XENDIT_SECRET_KEY,
            callbackToken: ctx.env.XENDIT_CALLBACK_TOKEN,
            fetch: networkFetch,
          })
        : null;
    case "simulator": {
      if (!simulatorEnabled(ctx)) {
        return null;
      }
      const serverKey = await simulatorServerKey(ctx.env);
      return midtransAdapter({
        name: "simulator",
        serverKey,
        hosts: SIMULATOR_HOSTS,
        fetch: simulatorFetch(ctx.platform, ctx.config.APP_URL, serverKey, ctx),
      });
    }
  }
}
