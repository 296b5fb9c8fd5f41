import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
// @ts-expect-error: a plain .mjs helper shared with the e2e project.
import { chromiumStatus } from "../scripts/lib/chromium.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));

// Browser Rendering (letter PDFs): miniflare launches Chrome from wrangler's cache and would download it
// when absent. scripts/setup-chromium.sh puts a wrapper around Debian's Chromium in the project's own
// cache, so point miniflare there before the plugin starts it (the same folder `npm run dev` uses).
process.env.XDG_CACHE_HOME = `${root}.cache`;

// The letter PDF tests need that Chromium; without it they skip with this reason (the tests run inside
// workerd and cannot look at the machine themselves, so the answer is provided to them).
const chromium: { ready: boolean; reason?: string } = chromiumStatus(root);
if (!chromium.ready) {
  console.warn(`api: letter PDF rendering tests will be skipped: ${chromium.reason}`);
}

/**
 * Tests create many tenants per file (storage is reset per file, not per test), so the test
 * runtime declares more tenant slots than wrangler.toml's local eight. The binding map is given whole
 * because miniflare options replace, not merge, the ones read from wrangler.toml.
 */
const TEST_SLOTS = 40;
function d1Databases(): Record<string, string> {
  const dbs: Record<string, string> = { PLATFORM_DB: "warga-platform" };
  for (let n = 1; n <= TEST_SLOTS; n++) {
    const slot = String(n).padStart(2, "0");
    dbs[`TENANT_DB_${slot}`] = `warga-tenant-${slot}`;
  }
  return dbs;
}

/**
 * The schema fuzz (test/security/fuzz/schema-fuzz.ts): its seed, and how many random requests per
 * operation it sends on top of its coverage cases (none unless asked: `WARGA_FUZZ_RUNS=200`).
 */
const fuzz = {
  seed: Number(process.env.WARGA_FUZZ_SEED ?? 20261123),
  runs: Number(process.env.WARGA_FUZZ_RUNS ?? 0),
};

export const TEST_INTERNAL_KEY = "test-internal-key-that-is-long-enough-0123456789";

/**
 * The main API talks to the real notification Worker over its service binding, built to JavaScript
 * first (an auxiliary Worker must be given as a script). Its queue has no consumer here: tests read
 * what was queued from its delivery log, which the main Worker's test env also binds (NOTIFY_DB_TEST).
 */
function buildNotifyWorker(): string {
  const outdir = `${root}.cache/notify-build`;
  execFileSync(
    `${root}node_modules/.bin/wrangler`,
    ["deploy", "--dry-run", "--outdir", outdir, "-c", `${root}workers/notify/wrangler.toml`],
    {
      cwd: root,
      stdio: "pipe",
      env: {
        ...process.env,
        PATH: `${root}node_modules/.bin:${process.env.PATH ?? ""}`,
        WRANGLER_SEND_METRICS: "false",
        XDG_CONFIG_HOME: `${root}.cache/config`,
      },
    },
  );
  return `${outdir}/index.js`;
}

export default defineConfig(async () => {
  const platformMigrations = await readD1Migrations(`${root}migrations/platform`);
  const notifyMigrations = await readD1Migrations(`${root}workers/notify/migrations`);
  const notifyScript = buildNotifyWorker();
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: `${root}wrangler.toml` },
        miniflare: {
          bindings: {
            ENVIRONMENT: "test",
            // A client hosted elsewhere (a Vite dev server), for the CORS tests; wrangler.toml lists none.
            CORS_ORIGINS: "http://localhost:5173,http://127.0.0.1:5173",
            LOG_LEVEL: "warn",
            JWT_SECRET: "test-jwt-secret-that-is-long-enough-0123456789",
            PASSWORD_PEPPER: "test-password-pepper-that-is-long-enough-0123",
            ARCHIVE_SIGNING_KEY: "test-archive-signing-key-that-is-long-enough-01",
            INTERNAL_API_KEY: TEST_INTERNAL_KEY,
            // Google's real endpoints; tests answer them at the fetch boundary (test/modules/identity/oauth).
            OIDC_PROVIDERS: JSON.stringify({
              google: {
                issuer: ["https://accounts.google.com", "accounts.google.com"],
                clientId: "warga-test.apps.googleusercontent.com",
                authorizationEndpoint: "https://accounts.google.com/o/oauth2/v2/auth",
                tokenEndpoint: "https://oauth2.googleapis.com/token",
                jwksUri: "https://www.googleapis.com/oauth2/v3/certs",
              },
            }),
            OIDC_GOOGLE_CLIENT_SECRET: "test-google-client-secret",
            CLIENT_URL: "http://app.test",
            // Web Push's public key (RFC 8291's example point): the app subscribes with it.
            VAPID_PUBLIC_KEY:
              "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8",
            // Support tickets: two operator inboxes, and the ticket-mail Worker's inbound address.
            SUPPORT_OPERATOR_EMAILS: "ops-a@warga.test, ops-b@warga.test",
            SUPPORT_REPLY_TO: "balas@support.warga.test",
            // Payments: both gateways configured (sandbox hosts), answered at the fetch boundary
            // (test/modules/billing/gateway.ts); new orders go to Midtrans.
            PAYMENT_GATEWAY: "midtrans",
            MIDTRANS_SERVER_KEY: "SB-Mid-server-test-0123456789abcdef",
            XENDIT_SECRET_KEY: "xnd_development_test_0123456789abcdef",
            XENDIT_CALLBACK_TOKEN: "xendit-callback-token-test-0123456789",
            PLATFORM_MIGRATIONS: platformMigrations,
            NOTIFY_MIGRATIONS: notifyMigrations,
          },
          d1Databases: {
            ...d1Databases(),
            NOTIFY_DB_TEST: "warga-notify",
            // A tenant database's schema as migrated, which test/helpers/setup.ts compares slots against.
            SCHEMA_REFERENCE_DB: "warga-schema-reference",
          },
          serviceBindings: { NOTIFY: "warga-notify" },
          workers: [
            {
              name: "warga-notify",
              modules: true,
              scriptPath: notifyScript,
              compatibilityDate: "2026-11-01",
              compatibilityFlags: ["nodejs_compat"],
              bindings: {
                ENVIRONMENT: "test",
                INTERNAL_API_KEY: TEST_INTERNAL_KEY,
                EMAIL_PROVIDER: "cloudflare",
                EMAIL_FROM: "Warga <noreply@warga.test>",
                EMAIL_HTTP_URL: "https://api.resend.com/emails",
                WHATSAPP_PROVIDER: "gateway",
                WHATSAPP_GATEWAY_URL: "https://api.fonnte.com/send",
                WHATSAPP_GATEWAY_TOKEN: "gateway-test-token",
                // Push configured so fan-outs queue push rows; nothing consumes the queue here, so the
                // key is never used to sign (workers/notify/test covers FCM itself).
                FCM_SERVICE_ACCOUNT: JSON.stringify({
                  project_id: "warga-test",
                  client_email: "notify@warga-test.iam.gserviceaccount.com",
                  private_key: "-----BEGIN PRIVATE KEY-----\nunused\n-----END PRIVATE KEY-----\n",
                }),
                WHATSAPP_CLOUD_PHONE_NUMBER_ID: "",
                WHATSAPP_CLOUD_API_VERSION: "v21.0",
                WHATSAPP_RATE_PER_MINUTE: "60",
                MAX_ATTEMPTS: "6",
                RETRY_BASE_SECONDS: "10",
                RETRY_MAX_SECONDS: "900",
                BRAND_NAME: "Warga",
                BRAND_LOGO_URL: "http://api.test/logo.png",
                APP_URL: "http://api.test",
              },
              d1Databases: { NOTIFY_DB: "warga-notify" },
              queueProducers: { NOTIFY_QUEUE: { queueName: "warga-notify-test-sink" } },
              email: { send_email: [{ name: "EMAIL" }] },
            },
          ],
        },
      }),
    ],
    test: {
      name: "api",
      root,
      include: ["test/**/*.test.ts"],
      exclude: ["test/e2e/**"],
      setupFiles: ["test/helpers/setup.ts"],
      // One runtime for every file (workerd start-up and module loading once, not per file); each file
      // still starts from empty storage (test/helpers/setup.ts).
      isolate: false,
      // Up to three runtimes, each taking the next file (the same in every project: vitest.config.ts).
      maxWorkers: 3,
      provide: { chromium, fuzz },
      testTimeout: 20_000,
    },
  };
});
