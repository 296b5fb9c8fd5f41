// `npm run dev`: local secrets, migrations on every database, demo data, then all Workers in one
// wrangler process on http://127.0.0.1:8787.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { migrateAll } from "./db-migrate.mjs";
import { projectEnv, root } from "./lib/dev-server.mjs";
import { STATE_DIR, WRANGLER, workerConfigs } from "./lib/wrangler.mjs";
import { seed } from "./seed-dev.mjs";
import { slotCountFromConfig } from "./tenant-slots.mjs";

/** Each Worker reads `.dev.vars` beside its config; they share one internal key. */
function ensureDevVars(configs) {
  const main = join(root, ".dev.vars");
  if (!existsSync(main)) {
    const secret = () => randomBytes(32).toString("base64url");
    writeFileSync(main, `JWT_SECRET=${secret()}\nINTERNAL_API_KEY=${secret()}\n`);
    console.log("wrote .dev.vars with fresh local secrets");
  }
  const key = /INTERNAL_API_KEY=(.*)/.exec(readFileSync(main, "utf8"))?.[1];
  for (const config of configs.slice(1)) {
    const file = join(root, dirname(config), ".dev.vars");
    if (!existsSync(file)) {
      writeFileSync(file, `INTERNAL_API_KEY=${key}\n`);
    }
  }
}

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
