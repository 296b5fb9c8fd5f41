import { defineModule } from "../../core/module";
import { pruneCallbacksJob } from "./callbackLimits";
import { gatewayCallbackRoute } from "./route";
import type { PaymentKindHandler } from "./types";

/**
 * One adapter interface for every payment (ADR payment-gateway): a module starts a payment with
 * `createPaymentOrder` and declares `payments: [{ kind, onPaid, onReversed? }]` in its
 * `defineModule`; the one callback route applies orders of each kind through its handler.
 */
export { checkoutGateway } from "./config";
export { midtransSignature } from "./midtrans";
export {
  type CallbackRecord,
  type CreatePaymentOrderInput,
  createPaymentOrder,
  paymentCallbacksFor,
  paymentOrder,
  paymentOrdersFor,
  type StartedPayment,
} from "./service";
export { RETURN_PARAM, simulateResult, simulation, simulatorEnabled } from "./simulator";
export { paymentCallbacks, paymentOrders } from "./tables";
export type {
  PaymentCustomer,
  PaymentKindHandler,
  PaymentOrder,
  PaymentOrderItem,
  PaymentOrderStatus,
} from "./types";

declare module "../../core/module" {
  interface ModuleDeclarations {
    /**
     * What happens when an order of the module's kind is paid, failed or reversed (src/platform/payments):
     * the one gateway callback route calls these. Orders are started with `createPaymentOrder`.
     */
    payments?: readonly PaymentKindHandler[];
  }
}

export function paymentsModule(handlers: readonly PaymentKindHandler[]) {
  const kinds = new Set<string>();
  for (const handler of handlers) {
    if (kinds.has(handler.kind)) {
      throw new Error(`two modules register the payment kind ${handler.kind}`);
    }
    kinds.add(handler.kind);
  }
  return defineModule({
    name: "payments",
    routes: [
      {
        method: "post",
        path: "/api/payments/gateway/callback",
        endpoint: gatewayCallbackRoute(handlers),
        access: { scope: "public" },
      },
    ],
    jobs: [pruneCallbacksJob],
  });
}
