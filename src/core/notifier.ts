import type { Bindings } from "./env";
import type { NotifyClient } from "./notify/client";
import { createNotifyClient } from "./notify/client";

/** The notification client every module uses, wired to this deployment's binding and configuration. */
export function notifyFor(env: Bindings): NotifyClient {
  const fallback =
    env.WHATSAPP_GATEWAY_URL && env.WHATSAPP_GATEWAY_TOKEN
      ? { url: env.WHATSAPP_GATEWAY_URL, token: env.WHATSAPP_GATEWAY_TOKEN }
      : undefined;
  return createNotifyClient({
    binding: env.NOTIFY,
    internalKey: env.INTERNAL_API_KEY,
    environment: env.ENVIRONMENT,
    whatsappFallback: fallback,
  });
}
