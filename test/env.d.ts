import type { D1Migration } from "cloudflare:test";

declare global {
  namespace Cloudflare {
    interface Env {
      PLATFORM_MIGRATIONS: D1Migration[];
      NOTIFY_MIGRATIONS: D1Migration[];
      NOTIFY_DB_TEST: D1Database;
      JWT_SECRET: string;
      INTERNAL_API_KEY: string;
    }
  }
}

declare module "vitest" {
  interface ProvidedContext {
    /** Whether Chromium (and miniflare's wrapper for it) is installed; see scripts/lib/chromium.mjs. */
    chromium: { ready: boolean; reason?: string };
  }
}
