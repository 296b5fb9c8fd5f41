import type { D1Migration } from "cloudflare:test";

declare global {
  namespace Cloudflare {
    interface Env {
      PLATFORM_MIGRATIONS: D1Migration[];
      JWT_SECRET: string;
      INTERNAL_API_KEY: string;
    }
  }
}
