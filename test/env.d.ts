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

declare global {
  interface ImportMeta {
    /**
     * Vite's `import.meta.glob`, which vitest applies to test files as it loads them (in workerd too):
     * test/modules/access.ts and test/modules/factories.ts find every module's files with it. Declared
     * for the tests only (src/ is built by wrangler, without Vite). Write it literally as
     * `import.meta.glob(…)`: vitest keeps a module that mentions it out of its module cache, so a new
     * file is found on the next run.
     */
    glob<M>(patterns: string[], options: { eager: true }): Record<string, M>;
  }
}

declare module "vitest" {
  interface ProvidedContext {
    /** Whether Chromium (and miniflare's wrapper for it) is installed; see scripts/lib/chromium.mjs. */
    chromium: { ready: boolean; reason?: string };
    /** The schema fuzz's seed and extra random runs per operation (test/vitest.config.ts). */
    fuzz: { seed: number; runs: number };
  }
}
