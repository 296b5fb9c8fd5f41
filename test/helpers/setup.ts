import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

// Storage is isolated per test file, so every file starts from a freshly migrated platform database.
await applyD1Migrations(env.PLATFORM_DB, env.PLATFORM_MIGRATIONS);
// The notification Worker's database, shared with it by id, so tests can read its delivery log.
await applyD1Migrations(env.NOTIFY_DB_TEST, env.NOTIFY_MIGRATIONS);
