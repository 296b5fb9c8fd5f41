// Builds the web app (web/) into the API Worker's static assets (public/), beside the Swagger UI files
// that scripts/copy-swagger-ui.mjs puts in public/swagger-ui (docs/adr/0041-web-app.md).
//   node scripts/build-web.mjs           one build (npm install, npm run deploy, the browser tests)
//   node scripts/build-web.mjs --watch   rebuilds when web/ changes (npm run dev)
// Then the service worker (web/src/pwa/sw.ts → public/sw.js), built after the app because it is given
// the app's file names: the shell it precaches, and a build id that makes a new build a new worker.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { parse } from "smol-toml";
import { root } from "./lib/dev-server.mjs";

const assets = join(root, "public");
const web = join(root, "web");

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

/** A chunk under public/app/ and every chunk it imports statically (what loading it costs), by name. */
export function chunkClosure(file, seen = new Set()) {
  if (seen.has(file)) {
    return seen;
  }
  seen.add(file);
  const code = readFileSync(join(assets, "app", file), "utf8");
  for (const [, dep] of code.matchAll(/(?:from|import)\s*["'`]\.\/([\w.-]+\.js)["'`]/g)) {
    chunkClosure(dep, seen);
  }
  return seen;
}

/**
 * What the service worker precaches: index.html (as "/", every page's shell), the files it names, the
 * first screens' chunks (home, and sign-in for a person signed out) and the public files the installed
 * app shows. Other screens' chunks are kept by the worker when first loaded.
 */
export function shellFiles() {
  const html = readFileSync(join(assets, "index.html"), "utf8");
  const named = [...html.matchAll(/(?:src|href)="\/app\/([\w.-]+)"/g)].map((m) => m[1]);
  const chunks = new Set();
  const files = readdirSync(join(assets, "app"));
  const firstScreens = files.filter((f) => /^(Home|SignIn)-[\w-]+\.js$/.test(f));
  for (const file of [...named.filter((f) => f.endsWith(".js")), ...firstScreens]) {
    chunkClosure(file, chunks);
  }
  const styles = named.filter((f) => f.endsWith(".css"));
  const icons = readdirSync(join(assets, "icons")).filter((f) => f.endsWith(".png") || f.endsWith(".svg"));
  return [
    "/",
    ...[...chunks, ...styles].sort().map((f) => `/app/${f}`),
    "/manifest.webmanifest",
    "/favicon.svg",
    ...icons.sort().map((f) => `/icons/${f}`),
  ];
}

async function buildServiceWorker({ quiet }) {
  const { build } = await import("vite");
  const precache = shellFiles();
  // The hashed names change with their content, so the list itself identifies the build.
  const id = createHash("sha256").update(precache.join("\n")).digest("hex").slice(0, 12);
  const workerFirst = parse(readFileSync(join(root, "wrangler.toml"), "utf8")).assets.run_worker_first;
  await build({
    configFile: false,
    root: web,
    publicDir: false,
    logLevel: quiet ? "warn" : "info",
    define: {
      __PRECACHE__: JSON.stringify(precache),
      __BUILD__: JSON.stringify(id),
      __WORKER_FIRST__: JSON.stringify(workerFirst),
    },
    build: {
      outDir: assets,
      emptyOutDir: false,
      copyPublicDir: false,
      target: "es2022",
      reportCompressedSize: false,
      lib: {
        entry: join(web, "src", "pwa", "sw.ts"),
        formats: ["iife"],
        name: "wargaServiceWorker",
        fileName: () => "sw.js",
      },
    },
  });
}

/** @param {{ watch?: boolean }} [opts] resolves after the first build; with `watch`, keeps rebuilding */
export async function buildWeb({ watch = false } = {}) {
  const { build } = await import("vite");
  removeOldBuild();
  const result = await build({
    configFile: join(web, "vite.config.ts"),
    logLevel: watch ? "info" : "warn",
    build: { watch: watch ? {} : null },
  });
  if (!watch) {
    await buildServiceWorker({ quiet: true });
    return result;
  }
  // Each rebuild of the app renames its files: the worker follows (its first build included).
  await new Promise((resolve) => {
    result.on("event", (event) => {
      if (event.code === "END") {
        buildServiceWorker({ quiet: false }).then(resolve, (error) => {
          console.error("service worker build failed:", error);
          resolve();
        });
      }
    });
  });
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const watch = process.argv.includes("--watch");
  await buildWeb({ watch });
  if (!watch) {
    console.log(`web app built into ${assets}`);
  }
}
