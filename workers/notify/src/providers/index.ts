import type { Config } from "../env";
import { withRequestIdHeader } from "../http/requestId";
import { createCloudflareEmailProvider } from "./email/cloudflare";
import { createResendProvider } from "./email/resend";
import { createFcmProvider } from "./push/fcm";
import { createWebPushProvider } from "./push/webpush";
import type { FetchFn, Providers, PushProvider } from "./types";
import { createWhatsAppCloudProvider } from "./whatsapp/cloud";
import { createGatewayProvider } from "./whatsapp/gateway";

// Resolved at call time, not captured, so a test that stubs globalThis.fetch reaches every provider.
export const globalFetch: FetchFn = (input, init) => fetch(input, init);

/** Every provider call carries the request id of the delivery it makes (X-Request-Id). */
function tracing(fetchFn: FetchFn): FetchFn {
  return (input, init) => fetchFn(input, withRequestIdHeader(init));
}

/**
 * One push provider to the consumer: a web device's message goes by Web Push, any other by FCM (which
 * reaches Android and, through APNs, iOS). A device whose provider is not configured here waits, as any
 * message of an unconfigured channel does.
 */
function pushByPlatform(fcm: PushProvider | null, web: PushProvider | null): PushProvider | null {
  if (!fcm && !web) {
    return null;
  }
  return {
    name: [fcm?.name, web?.name].filter(Boolean).join("+"),
    idempotent: false,
    send(push) {
      const provider = push.platform === "web" ? web : fcm;
      return provider
        ? provider.send(push)
        : Promise.resolve({
            ok: false,
            retryable: true,
            error: `no push provider configured for ${push.platform ?? "this"} device`,
          });
    },
  };
}

export function buildProviders(config: Config, untraced: FetchFn = globalFetch): Providers {
  const { email, push, webPush, whatsapp } = config;
  const fetchFn = tracing(untraced);
  return {
    email: !email
      ? null
      : email.provider === "http"
        ? createResendProvider(email, fetchFn)
        : createCloudflareEmailProvider(email.binding),
    push: pushByPlatform(
      push ? createFcmProvider(push, fetchFn) : null,
      webPush ? createWebPushProvider(webPush, fetchFn) : null,
    ),
    whatsapp: !whatsapp
      ? null
      : whatsapp.provider === "cloud"
        ? createWhatsAppCloudProvider(whatsapp, fetchFn)
        : createGatewayProvider(whatsapp, fetchFn),
  };
}
