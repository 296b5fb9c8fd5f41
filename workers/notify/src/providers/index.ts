import type { Config } from "../env";
import { withRequestIdHeader } from "../http/requestId";
import { createCloudflareEmailProvider } from "./email/cloudflare";
import { createResendProvider } from "./email/resend";
import { createFcmProvider } from "./push/fcm";
import type { FetchFn, Providers } from "./types";
import { createWhatsAppCloudProvider } from "./whatsapp/cloud";
import { createGatewayProvider } from "./whatsapp/gateway";

// Resolved at call time, not captured, so a test that stubs globalThis.fetch reaches every provider.
export const globalFetch: FetchFn = (input, init) => fetch(input, init);

/** Every provider call carries the request id of the delivery it makes (X-Request-Id). */
function tracing(fetchFn: FetchFn): FetchFn {
  return (input, init) => fetchFn(input, withRequestIdHeader(init));
}

export function buildProviders(config: Config, untraced: FetchFn = globalFetch): Providers {
  const { email, push, whatsapp } = config;
  const fetchFn = tracing(untraced);
  return {
    email: !email
      ? null
      : email.provider === "http"
        ? createResendProvider(email, fetchFn)
        : createCloudflareEmailProvider(email.binding),
    push: push ? createFcmProvider(push, fetchFn) : null,
    whatsapp: !whatsapp
      ? null
      : whatsapp.provider === "cloud"
        ? createWhatsAppCloudProvider(whatsapp, fetchFn)
        : createGatewayProvider(whatsapp, fetchFn),
  };
}
