// The state and the server every workerd bench starts from: the local databases migrated and seeded as
// `npm run dev` has them, and the bench entry (the API plus its bare baselines, scripts/bench/entry.ts)
// served on workerd directly (scripts/lib/workerd.mjs).
import { migrateAll } from "../db-migrate.mjs";
import { ensureDevVars } from "../lib/dev-vars.mjs";
import { startWorkerd } from "../lib/workerd.mjs";
import { STATE_DIR } from "../lib/wrangler.mjs";
import { seed } from "../seed-dev.mjs";
import { slotCountFromConfig } from "../tenant-slots.mjs";

/** Development variables in place, every local database migrated and seeded. */
export async function prepareBenchState() {
  ensureDevVars(["wrangler.toml"]);
  await migrateAll({ quiet: true });
  await seed({ slots: slotCountFromConfig() });
}

/** The bench entry on workerd over the local state; `opts` as `startWorkerd` takes them. */
export function startBenchWorkerd(opts = {}) {
  return startWorkerd({ script: "scripts/bench/entry.ts", persistTo: STATE_DIR, ...opts });
}
