// Builds the web app (web/) into the API Worker's static assets (public/), beside the Swagger UI files
// that scripts/copy-swagger-ui.mjs puts in public/swagger-ui (docs/adr/0041-web-app.md).
//   node scripts/build-web.mjs           one build (npm install, npm run deploy, the browser tests)
//   node scripts/build-web.mjs --watch   rebuilds when web/ changes (npm run dev)
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { root } from "./lib/dev-server.mjs";

const assets = join(root, "public");

/** Everything in public/ but the Swagger UI files is the web build's own, removed before a build. */
function removeOldBuild() {
  let entries = [];
  try {
    entries = readdirSync(assets);
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry !== "swagger-ui") {
      rmSync(join(assets, entry), { recursive: true, force: true });
    }
  }
}

/** @param {{ watch?: boolean }} [opts] resolves after the first build; with `watch`, keeps rebuilding */
export async function buildWeb({ watch = false } = {}) {
  const { build } = await import("vite");
  removeOldBuild();
  return build({
    configFile: join(root, "web", "vite.config.ts"),
    logLevel: watch ? "info" : "warn",
    build: { watch: watch ? {} : null },
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const watch = process.argv.includes("--watch");
  await buildWeb({ watch });
  if (!watch) {
    console.log(`web app built into ${assets}`);
  }
}
