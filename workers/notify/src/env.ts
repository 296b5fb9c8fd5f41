import { z } from "zod";
import type { QueueBody } from "./queue/body";

// Secrets are not in wrangler.toml, so `wrangler types` cannot see them.
export interface Secrets {
  INTERNAL_API_KEY?: string;
  EMAIL_HTTP_API_KEY?: string;
  FCM_SERVICE_ACCOUNT?: string;
  /** Web Push: the VAPID private key, base64url of its 32 bytes (with VAPID_PUBLIC_KEY, a var). */
  VAPID_PRIVATE_KEY?: string;
  WHATSAPP_CLOUD_TOKEN?: string;
  WHATSAPP_GATEWAY_TOKEN?: string;
}

// Written out rather than taken from the generated `Env`: `wrangler types` types vars as literals unless
// run with --strict-vars=false, and tests and other environments set other values.
export interface AppEnv extends Secrets {
  NOTIFY_DB: D1Database;
  NOTIFY_QUEUE: Queue<QueueBody>;
  EMAIL?: SendEmail;
  ENVIRONMENT: string;
  EMAIL_PROVIDER: string;
  EMAIL_FROM: string;
  EMAIL_HTTP_URL: string;
  WHATSAPP_PROVIDER: string;
  WHATSAPP_GATEWAY_URL: string;
  WHATSAPP_CLOUD_PHONE_NUMBER_ID: string;
  WHATSAPP_CLOUD_API_VERSION: string;
  WHATSAPP_RATE_PER_MINUTE: string;
  MAX_ATTEMPTS: string;
  RETRY_BASE_SECONDS: string;
  RETRY_MAX_SECONDS: string;
  PROVIDER_TIMEOUT_SECONDS?: string;
  /** Web Push: the VAPID public key, base64url of the uncompressed P-256 point (65 bytes). */
  VAPID_PUBLIC_KEY?: string;
  /** Web Push: who runs this sender, for push services to write to (mailto: or https:). */
  VAPID_SUBJECT?: string;
  BRAND_NAME: string;
  BRAND_LOGO_URL: string;
  APP_URL: string;
  /** The operators' inbox, comma-separated: the same setting as the API's, for delivery alerts. */
  SUPPORT_OPERATOR_EMAILS?: string;
}

export type EmailConfig =
  | { provider: "cloudflare"; from: string; binding: SendEmail }
  | { provider: "http"; from: string; url: string; apiKey: string };

export interface FcmConfig {
  projectId: string;
  clientEmail: string;
  privateKey: string;
  privateKeyId?: string;
  tokenUri: string;
}

/** Web Push with VAPID (RFC 8292): keys base64url, as the web-push tools print them. */
export interface WebPushConfig {
  publicKey: string;
  privateKey: string;
  subject: string;
}

export type WhatsAppConfig =
  | { provider: "cloud"; phoneNumberId: string; token: string; apiVersion: string }
  | { provider: "gateway"; url: string; token: string };

export interface Config {
  environment: string;
  internalApiKey: string | undefined;
  email: EmailConfig | null;
  /** FCM: the Android and iOS apps. */
  push: FcmConfig | null;
  /** Web Push: the installed web app. Either push provider alone makes the push channel available. */
  webPush: WebPushConfig | null;
  whatsapp: WhatsAppConfig | null;
  whatsappRatePerMinute: number;
  maxAttempts: number;
  retryBaseSeconds: number;
  retryMaxSeconds: number;
  /** The deadline of one delivery attempt's provider calls; at most half the claim's lease (ADR 0031). */
  providerTimeoutMs: number;
  brand: { name: string; logoUrl: string; appUrl: string };
  /** Where delivery alerts are emailed (SUPPORT_OPERATOR_EMAILS); none configured means shown only. */
  operatorEmails: string[];
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

const positiveInt = (fallback: number) => z.coerce.number().int().positive().catch(fallback);

const numbers = z.object({
  WHATSAPP_RATE_PER_MINUTE: positiveInt(60),
  MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100),
  RETRY_BASE_SECONDS: z.coerce.number().min(0),
  RETRY_MAX_SECONDS: z.coerce.number().min(0).max(43_200),
  // The consumer's lease is 120 s: a call may never outlive it, with room left for the finish.
  PROVIDER_TIMEOUT_SECONDS: z.coerce.number().positive().max(60).default(25),
});

const serviceAccount = z.object({
  project_id: z.string().min(1),
  client_email: z.string().min(1),
  private_key: z.string().includes("PRIVATE KEY"),
  private_key_id: z.string().optional(),
  token_uri: z.url().optional(),
});

const present = (value: string | undefined): value is string => typeof value === "string" && value.length > 0;

function emailConfig(env: AppEnv): EmailConfig | null {
  const from = env.EMAIL_FROM;
  if (!present(from)) {
    return null;
  }
  if (env.EMAIL_PROVIDER === "http") {
    return present(env.EMAIL_HTTP_URL) && present(env.EMAIL_HTTP_API_KEY)
      ? { provider: "http", from, url: env.EMAIL_HTTP_URL, apiKey: env.EMAIL_HTTP_API_KEY }
      : null;
  }
  if (env.EMAIL_PROVIDER === "cloudflare") {
    return env.EMAIL ? { provider: "cloudflare", from, binding: env.EMAIL } : null;
  }
  return null;
}

function pushConfig(env: AppEnv): FcmConfig | null {
  if (!present(env.FCM_SERVICE_ACCOUNT)) {
    return null;
  }
  let json: unknown;
  try {
    json = JSON.parse(env.FCM_SERVICE_ACCOUNT);
  } catch {
    throw new ConfigError("FCM_SERVICE_ACCOUNT is not valid JSON");
  }
  const parsed = serviceAccount.safeParse(json);
  if (!parsed.success) {
    throw new ConfigError("FCM_SERVICE_ACCOUNT lacks project_id, client_email or private_key");
  }
  return {
    projectId: parsed.data.project_id,
    clientEmail: parsed.data.client_email,
    privateKey: parsed.data.private_key,
    privateKeyId: parsed.data.private_key_id,
    tokenUri: parsed.data.token_uri ?? "https://oauth2.googleapis.com/token",
  };
}

const base64urlBytes = (text: string, bytes: number) =>
  /^[A-Za-z0-9_-]+$/.test(text) && Math.floor((text.length * 3) / 4) === bytes;

function webPushConfig(env: AppEnv): WebPushConfig | null {
  if (!present(env.VAPID_PRIVATE_KEY)) {
    return null;
  }
  const publicKey = env.VAPID_PUBLIC_KEY ?? "";
  if (!base64urlBytes(env.VAPID_PRIVATE_KEY, 32) || !base64urlBytes(publicKey, 65)) {
    throw new ConfigError(
      "VAPID_PRIVATE_KEY needs VAPID_PUBLIC_KEY: base64url keys of 32 and 65 bytes (P-256)",
    );
  }
  const subject = present(env.VAPID_SUBJECT) ? env.VAPID_SUBJECT : "";
  if (!/^(mailto:|https:\/\/)/.test(subject)) {
    throw new ConfigError("VAPID_SUBJECT must be a mailto: or https: address push services can reach");
  }
  return { publicKey, privateKey: env.VAPID_PRIVATE_KEY, subject };
}

function whatsappConfig(env: AppEnv): WhatsAppConfig | null {
  if (env.WHATSAPP_PROVIDER === "cloud") {
    return present(env.WHATSAPP_CLOUD_PHONE_NUMBER_ID) && present(env.WHATSAPP_CLOUD_TOKEN)
      ? {
          provider: "cloud",
          phoneNumberId: env.WHATSAPP_CLOUD_PHONE_NUMBER_ID,
          token: env.WHATSAPP_CLOUD_TOKEN,
          apiVersion: present(env.WHATSAPP_CLOUD_API_VERSION) ? env.WHATSAPP_CLOUD_API_VERSION : "v21.0",
        }
      : null;
  }
  if (env.WHATSAPP_PROVIDER === "gateway") {
    return present(env.WHATSAPP_GATEWAY_URL) && present(env.WHATSAPP_GATEWAY_TOKEN)
      ? { provider: "gateway", url: env.WHATSAPP_GATEWAY_URL, token: env.WHATSAPP_GATEWAY_TOKEN }
      : null;
  }
  return null;
}

// Parsed once per env object: the runtime hands the same object to every request of an isolate.
const cache = new WeakMap<object, Config>();

export function loadConfig(env: AppEnv): Config {
  const cached = cache.get(env);
  if (cached) {
    return cached;
  }
  const nums = numbers.safeParse(env);
  if (!nums.success) {
    throw new ConfigError(
      `invalid numeric setting: ${nums.error.issues.map((i) => i.path.join(".")).join(", ")}`,
    );
  }
  const config: Config = {
    environment: env.ENVIRONMENT || "production",
    internalApiKey: present(env.INTERNAL_API_KEY) ? env.INTERNAL_API_KEY : undefined,
    email: emailConfig(env),
    push: pushConfig(env),
    webPush: webPushConfig(env),
    whatsapp: whatsappConfig(env),
    whatsappRatePerMinute: nums.data.WHATSAPP_RATE_PER_MINUTE,
    maxAttempts: nums.data.MAX_ATTEMPTS,
    retryBaseSeconds: nums.data.RETRY_BASE_SECONDS,
    retryMaxSeconds: nums.data.RETRY_MAX_SECONDS,
    providerTimeoutMs: Math.round(nums.data.PROVIDER_TIMEOUT_SECONDS * 1000),
    brand: { name: env.BRAND_NAME || "Warga", logoUrl: env.BRAND_LOGO_URL || "", appUrl: env.APP_URL || "" },
    operatorEmails: (env.SUPPORT_OPERATOR_EMAILS ?? "")
      .split(",")
      .map((a) => a.trim().toLowerCase())
      .filter((a) => z.email().safeParse(a).success),
  };
  cache.set(env, config);
  return config;
}
