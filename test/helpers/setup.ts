import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

// Storage is isolated per test file, so every file starts from a freshly migrated platform database.
await applyD1Migrations(env.PLATFORM_DB, env.PLATFORM_MIGRATIONS);
