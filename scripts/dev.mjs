// `npm run dev`: local secrets, migrations on every database, demo data, then all Workers in one
// wrangler process on http://127.0.0.1:8787.
import { spawn } from "node:child_process";
import { migrateAll } from "./db-migrate.mjs";
import { projectEnv, root } from "./lib/dev-server.mjs";
import { ensureDevVars } from "./lib/dev-vars.mjs";
import { STATE_DIR, WRANGLER, workerConfigs } from "./lib/wrangler.mjs";
import { seed } from "./seed-dev.mjs";
import { slotCountFromConfig } from "./tenant-slots.mjs";

const configs = workerConfigs();
ensureDevVars(configs);
console.log("applying migrations…");
await migrateAll({ quiet: true });
const seeded = await seed({ slots: slotCountFromConfig() });
console.log(`demo data ready: ${seeded.tenants.map((t) => t.slug).join(", ")} (password warga-demo-2026)`);

const args = [
  "dev",
  ...configs.flatMap((c) => ["-c", c]),
  "--ip",
  "127.0.0.1",
  "--port",
  "8787",
  "--persist-to",
  STATE_DIR,
];
const child = spawn(WRANGLER, [...args, ...process.argv.slice(2)], {
  cwd: root,
  env: projectEnv(),
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("exit", (code) => process.exit(code ?? 0));
