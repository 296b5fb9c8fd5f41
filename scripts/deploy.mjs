// Provisioning and deploy from an empty Cloudflare account (docs/operations.md).
//   npm run deploy -- --plan    what exists and what would change (D1, R2, queues, migrations, Durable
//                               Object migrations, Workers, secrets); changes nothing
//   npm run deploy              builds the web app into the API's static assets (public/), creates what is missing, records database ids in the configs, migrates
//                               every database, deploys the Workers in binding order. A second run
//                               changes nothing. Missing secrets stop it first, with the command for each.
//   npm run deploy -- --check   offline (CI): `wrangler deploy --dry-run` for every Worker and its gzip
//                               bundle size against the budget
import { buildWeb } from "./build-web.mjs";
import { root } from "./lib/dev-server.mjs";
import {
  apply,
  BUNDLE_BUDGET_BYTES,
  bundle,
  desiredResources,
  formatPlan,
  inspect,
  plan,
  readConfigs,
} from "./lib/provision.mjs";
import { wrangler } from "./lib/wrangler.mjs";

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

/** Dry-run bundles of every Worker, checked against the budget; returns config → digest. */
export async function checkBundles(run, dir, configs, log = console.log) {
  const digests = {};
  const over = [];
  for (const { path } of configs) {
    const result = await bundle(run, dir, path);
    digests[path] = result.digest;
    log(
      `${path}: ${kib(result.rawBytes)} raw, ${kib(result.gzipBytes)} gzip (budget ${kib(BUNDLE_BUDGET_BYTES)})`,
    );
    if (result.gzipBytes > BUNDLE_BUDGET_BYTES) {
      over.push(path);
    }
  }
  return { digests, over };
}

/** The whole command, for a given wrangler runner and project folder (tests pass a fake). */
export async function deploy(argv, run = wrangler, dir = root, log = console.log) {
  const configs = readConfigs(dir);
  if (argv.includes("--check")) {
    const { over } = await checkBundles(run, dir, configs, log);
    if (over.length) {
      throw new Error(`over the ${kib(BUNDLE_BUDGET_BYTES)} gzip budget: ${over.join(", ")}`);
    }
    return null;
  }
  const desired = desiredResources(configs);
  const { digests } = await checkBundles(run, dir, configs, () => {});
  const state = await inspect(run, desired);
  const p = plan(desired, state, digests);
  if (argv.includes("--plan")) {
    log(formatPlan(p));
    return p;
  }
  await apply(run, dir, p, log);
  log("deploy: done");
  return p;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const argv = process.argv.slice(2);
    // The app is part of the API Worker's upload (its static assets): built from this checkout's web/
    // before anything is deployed (the bundle checks and the plan do not need it).
    if (!argv.includes("--check") && !argv.includes("--plan")) {
      await buildWeb();
    }
    await deploy(argv);
  } catch (error) {
    console.error(error.stderr ? `${error.message}\n${error.stderr}` : error.message);
    process.exit(1);
  }
}
