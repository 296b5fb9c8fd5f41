// `npm run dev`: local secrets, migrations on every database, demo data, the web app built (and rebuilt
// while its sources change), then all Workers in one wrangler process on http://127.0.0.1:8787, which
// serves the app at / and the API under /api.
import { spawn } from "node:child_process";
import { buildWeb } from "./build-web.mjs";
import { migrateAll } from "./db-migrate.mjs";
import { projectEnv, root } from "./lib/dev-server.mjs";
import { ensureDevVars } from "./lib/dev-vars.mjs";
import { openLocalD1 } from "./lib/local-d1.mjs";
import { STATE_DIR, WRANGLER, workerConfigs } from "./lib/wrangler.mjs";
import { seedPhotos } from "./seed/api/galeri.mjs";
import { seedCovers } from "./seed/api/konten.mjs";
import { seedPolls } from "./seed/api/musyawarah.mjs";
import { seed } from "./seed-dev.mjs";
import { slotCountFromConfig } from "./tenant-slots.mjs";

const configs = workerConfigs();
ensureDevVars(configs);
// Every database's migrations and the demo data in one process, through one workerd holding all the
// local databases (scripts/lib/local-d1.mjs); wrangler dev then opens the same files.
const started = performance.now();
const seconds = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
console.log("preparing the local databases (migrations, then demo data)…");
const local = await openLocalD1(configs, STATE_DIR);
let seeded;
try {
  const migrated = await migrateAll({ local });
  console.log(migrated ? `migrations applied (${seconds()})` : `migrations up to date (${seconds()})`);
  seeded = await seed({ slots: slotCountFromConfig(), local });
} finally {
  await local.dispose();
}
console.log(
  `demo data ready: ${seeded.tenants.map((t) => t.slug).join(", ")} (password warga-demo-2026) (${seconds()})`,
);

// The first build before wrangler starts (it serves public/ as it finds it); then vite watches web/ and
// rebuilds into public/, which wrangler dev picks up without a restart.
console.log("building the web app…");
const watcher = await buildWeb({ watch: true });

// Another port for a second server beside a running one (`npm run bench -- setup` starts its own).
const port = process.env.WARGA_DEV_PORT ?? "8787";
const args = [
  "dev",
  ...configs.flatMap((c) => ["-c", c]),
  "--ip",
  "127.0.0.1",
  "--port",
  port,
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
child.on("exit", async (code) => {
  await watcher.close?.();
  process.exit(code ?? 0);
});

// Demo data that only the API can write (a poll is opened in its Durable Object when published, a photo
// goes to R2): once
// the API answers, through its own routes. A failure is reported; the dev server keeps running.
const base = `http://127.0.0.1:${port}`;
for (let waited = 0; waited < 120_000; waited += 500) {
  const up = await fetch(`${base}/api/health`).then(
    (r) => r.ok,
    () => false,
  );
  if (up) {
    try {
      const created = await seedPolls(base);
      console.log(`demo polls ready (${created} created)`);
    } catch (error) {
      console.error(`demo polls not seeded: ${error instanceof Error ? error.message : error}`);
    }
    try {
      const added = await seedPhotos(base);
      const covers = await seedCovers(base);
      console.log(`demo photos ready (${added} added, ${covers} news covers set)`);
    } catch (error) {
      console.error(`demo photos not seeded: ${error instanceof Error ? error.message : error}`);
    }
    break;
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
}
