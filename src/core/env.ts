import type { DrizzleD1Database } from "drizzle-orm/d1";
import { z } from "zod";
import type { Actor } from "./actor";
import type * as identitySchema from "./db/identity-schema";
import type * as platformSchema from "./db/platform-schema";
import { rememberLogSecrets, setLogLevel } from "./http/log";
import type { TenantInfo } from "./tenant-info";

/**
 * Bindings: `Env` comes from `wrangler types` (worker-configuration.d.ts); secrets are not in
 * wrangler.toml, so they are declared here.
 */
export type Bindings = Env & {
  JWT_SECRET: string;
  /**
   * During a rotation only: the secret `JWT_SECRET` replaced. Nothing is signed with it; access tokens
   * and visitor passes signed before the rotation still verify until it is removed (core/auth/keyring.ts).
   */
  JWT_SECRET_PREVIOUS?: string;
  INTERNAL_API_KEY: string;
  /** Keys every password before hashing (ADR 0012): without it a stolen database cannot be cracked. */
  PASSWORD_PEPPER: string;
  /** Signs tenant archives (platform-ops/signature.ts): an import takes only what this platform exported. */
  ARCHIVE_SIGNING_KEY: string;
  /**
   * Where the links the system sends open, for a client hosted apart from this Worker; unset, they open
   * the web app this Worker serves at APP_URL (`clientUrl`).
   */
  CLIENT_URL?: string;
  /** Local only: the WhatsApp gateway the notification client falls back to when the service is down. */
  WHATSAPP_GATEWAY_URL?: string;
  WHATSAPP_GATEWAY_TOKEN?: string;
  /**
   * The assistant's OpenAI-compatible chat backend (issue 17): base URL (…/v1), model and key. Without a
   * base URL and model the assistant answers in its built-in mode. Limits per user per Jakarta day.
   */
  AI_BASE_URL?: string;
  AI_MODEL?: string;
  AI_API_KEY?: string;
  AI_DAILY_REQUESTS?: string;
  AI_DAILY_TOKENS?: string;
  /**
   * Payments (platform/payments/config.ts): which gateway new orders go to (`midtrans`, the default, or
   * `xendit`), and each gateway's keys. With no keys at all, `ENVIRONMENT=local` uses the simulator.
   */
  PAYMENT_GATEWAY?: string;
  /** `production` sends Midtrans calls to the live hosts; anything else to the sandbox. */
  MIDTRANS_ENV?: string;
  MIDTRANS_SERVER_KEY?: string;
  XENDIT_SECRET_KEY?: string;
  /** The verification token Xendit sends in `x-callback-token` (its dashboard's "Callback token"). */
  XENDIT_CALLBACK_TOKEN?: string;
};

/** The base of every link into the client (`/join`, `/auth/magic-link`, `/login`): CLIENT_URL, else APP_URL. */
export function clientUrl(env: { APP_URL: string; CLIENT_URL?: string }): string {
  return (env.CLIENT_URL || env.APP_URL).replace(/\/$/, "");
}

/**
 * The bindings a service verb may use: everything but the databases. The platform database comes as
 * `ctx.platform` and a tenant's database only as `ctx.db`, so no verb can name another tenant's slot.
 * (At run time this is a copy of the bindings without those keys: see core/tenancy/system.ts.)
 * core/context.ts re-exports it.
 */
export type ServiceEnv = Omit<Bindings, "PLATFORM_DB" | `TENANT_DB_${string}`>;

export type PlatformDb = DrizzleD1Database<typeof platformSchema & typeof identitySchema>;

export interface Variables {
  requestId: string;
  config: Config;
  actor?: Actor;
  tenant?: TenantInfo;
  /** The request path with secret route parts redacted (core/http/secret.ts), for logs. */
  logPath?: string;
}

/** What core's own middleware and context builders see: every binding, the databases included. */
export interface HonoEnv {
  Bindings: Bindings;
  Variables: Variables;
}

/**
 * What a route handler in a module or a page sees (issue 48): `c.env` is `ServiceEnv`, which has no
 * database binding, so `c.env.TENANT_DB_1` or `c.env.PLATFORM_DB` does not compile in a module. The
 * handler turns `c` into its context with `tenantCtx(c)`/`platformCtx(c)` (core/http/access.ts), and
 * only core reads the bindings behind it. biome.json keeps `HonoEnv` and `Bindings` out of modules and
 * pages, so a module cannot name the full type either.
 */
export interface RouteEnv {
  Bindings: ServiceEnv;
  Variables: Variables;
}

const configSchema = z.object({
  ENVIRONMENT: z.enum(["local", "test", "staging", "production"]),
  APP_URL: z.url(),
  JWT_ISSUER: z.string().min(1),
  JWT_AUDIENCE: z.string().min(1),
  JWT_SECRET: z.string().min(32, "JWT_SECRET must be at least 32 characters"),
  JWT_SECRET_PREVIOUS: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.string().min(32, "JWT_SECRET_PREVIOUS must be at least 32 characters").optional(),
  ),
  INTERNAL_API_KEY: z.string().min(32, "INTERNAL_API_KEY must be at least 32 characters"),
  PASSWORD_PEPPER: z.string().min(32, "PASSWORD_PEPPER must be at least 32 characters"),
  ARCHIVE_SIGNING_KEY: z.string().min(32, "ARCHIVE_SIGNING_KEY must be at least 32 characters"),
  CORS_ORIGINS: z.string().default(""),
  VERSION: z.string().default("dev"),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  AI_BASE_URL: z.preprocess((v) => (v === "" ? undefined : v), z.url().optional()),
  AI_MODEL: z.preprocess((v) => (v === "" ? undefined : v), z.string().max(200).optional()),
  AI_API_KEY: z.preprocess((v) => (v === "" ? undefined : v), z.string().optional()),
  AI_DAILY_REQUESTS: z.coerce.number().int().min(1).default(50),
  AI_DAILY_TOKENS: z.coerce.number().int().min(1).default(100_000),
  /** Web Push: the VAPID public key the web app subscribes with (an uncompressed P-256 point, base64url). */
  VAPID_PUBLIC_KEY: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z
      .string()
      .regex(/^B[A-Za-z0-9_-]{86}$/, "VAPID_PUBLIC_KEY must be a P-256 public key, base64url (65 bytes)")
      .optional(),
  ),
});

type RawAi = "AI_BASE_URL" | "AI_MODEL" | "AI_API_KEY" | "AI_DAILY_REQUESTS" | "AI_DAILY_TOKENS";

/** The assistant's backend and limits; `backend` is null in the built-in mode (no model configured). */
export interface AssistantConfig {
  backend: { baseUrl: string; model: string; apiKey: string | null } | null;
  dailyRequests: number;
  dailyTokens: number;
  /** The whole answer, every tool round included, must arrive within this (issue 17: 30 s). */
  timeoutMs: number;
}

export type Config = Omit<z.infer<typeof configSchema>, "CORS_ORIGINS" | RawAi> & {
  corsOrigins: string[];
  assistant: AssistantConfig;
};

let cached: { key: string; config: Config } | undefined;

/** `localhost`, `*.localhost`, 127.0.0.0/8 and ::1: this machine, never a deployed Worker's host. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    /^127(\.\d{1,3}){3}$/.test(host) ||
    host === "[::1]"
  );
}

/**
 * `ENVIRONMENT=local` switches on stand-ins that must never run deployed: the payment simulator (which
 * settles invoices from its own page) and the direct WhatsApp fallback. A condition on the variable alone
 * is one forgotten line in wrangler.toml from production, so the Worker refuses to start (issue 31)
 * unless its own URL is this machine too.
 */
function assertLocalIsLocal(config: { ENVIRONMENT: string; APP_URL: string }): void {
  if (config.ENVIRONMENT === "local" && !isLoopbackHost(new URL(config.APP_URL).hostname)) {
    throw new Error(
      "Invalid Worker configuration: ENVIRONMENT=local runs the payment simulator and other local stand-ins, so APP_URL must be a loopback address (127.0.0.1, localhost)",
    );
  }
}

/** Identity of the configuration, cheap enough to compare on every request. */
function fingerprint(env: Bindings): string {
  return [
    env.ENVIRONMENT,
    env.APP_URL,
    env.JWT_ISSUER,
    env.JWT_AUDIENCE,
    env.JWT_SECRET,
    env.JWT_SECRET_PREVIOUS,
    env.INTERNAL_API_KEY,
    env.PASSWORD_PEPPER,
    env.ARCHIVE_SIGNING_KEY,
    env.CORS_ORIGINS,
    env.VERSION,
    env.LOG_LEVEL,
    env.AI_BASE_URL,
    env.AI_MODEL,
    env.AI_API_KEY,
    env.AI_DAILY_REQUESTS,
    env.AI_DAILY_TOKENS,
    env.VAPID_PUBLIC_KEY,
  ].join("\u0000");
}

/**
 * Checks configuration once per isolate and fails loudly: a Worker deployed without its secrets
 * should answer 500 on every route rather than sign tokens with an empty key.
 */
export function loadConfig(env: Bindings): Config {
  const key = fingerprint(env);
  if (cached?.key === key) {
    return cached.config;
  }
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => i.path.join(".")).join(", ");
    throw new Error(`Invalid Worker configuration: ${fields}`);
  }
  assertLocalIsLocal(parsed.data);
  const { CORS_ORIGINS, AI_BASE_URL, AI_MODEL, AI_API_KEY, AI_DAILY_REQUESTS, AI_DAILY_TOKENS, ...rest } =
    parsed.data;
  const config: Config = {
    ...rest,
    assistant: {
      backend:
        AI_BASE_URL && AI_MODEL
          ? { baseUrl: AI_BASE_URL.replace(/\/+$/, ""), model: AI_MODEL, apiKey: AI_API_KEY ?? null }
          : null,
      dailyRequests: AI_DAILY_REQUESTS,
      dailyTokens: AI_DAILY_TOKENS,
      timeoutMs: 30_000,
    },
    corsOrigins: CORS_ORIGINS.split(",")
      .map((o) => o.trim())
      .filter(Boolean),
  };
  setLogLevel(config.LOG_LEVEL);
  // Every secret binding (JWT_SECRET, JWT_SECRET_PREVIOUS, PASSWORD_PEPPER, ARCHIVE_SIGNING_KEY, INTERNAL_API_KEY, OIDC_*_CLIENT_SECRET, tokens).
  rememberLogSecrets(
    Object.entries(env)
      .filter(([name]) => /SECRET|TOKEN|PEPPER|_KEY$/.test(name))
      .map(([, value]) => value),
  );
  cached = { key, config };
  return config;
}
