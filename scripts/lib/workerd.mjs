// The leanest local runtime that is still workerd, for benchmarks: the Worker is bundled once by
// `wrangler deploy --dry-run` (the same bundle a deploy uploads) and served by Miniflare's API on a
// direct workerd socket (`unsafeDirectSockets`, no proxy): no `wrangler dev` proxy, no Miniflare entry
// Worker, no Node process in the request path. Node only drives the load and reads the workerd
// process's CPU time from /proc (its threads' scheduler run time: `cpuClock`).
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { devVar, projectEnv, root, TEST_SECRETS } from "./dev-server.mjs";
import { deliveryLog } from "./notify-standin.mjs";

const run = promisify(execFile);
const WRANGLER = join(root, "node_modules", ".bin", "wrangler");

/**
 * Bundles a Worker exactly as `wrangler deploy` would, without uploading. Returns the bundle's main
 * module and wrangler's own "Total Upload: … / gzip: …" figures.
 */
export async function bundleWorker(config, { script } = {}) {
  const outdir = mkdtempSync(join(tmpdir(), "warga-bundle-"));
  const args = ["deploy", "--dry-run", "--outdir", outdir, "-c", config, ...(script ? [script] : [])];
  const { stdout, stderr } = await run(WRANGLER, args, {
    cwd: root,
    env: projectEnv({ CI: "true" }),
    maxBuffer: 64 * 1024 * 1024,
  });
  const text = `${stdout}\n${stderr}`;
  const size = /Total Upload:\s*([\d.]+)\s*KiB\s*\/\s*gzip:\s*([\d.]+)\s*KiB/.exec(text);
  const main = readdirSync(outdir).find((f) => f.endsWith(".js"));
  if (!main) {
    throw new Error(`wrangler deploy --dry-run wrote no script:\n${text}`);
  }
  return {
    outdir,
    main: join(outdir, main),
    totalKiB: size ? Number(size[1]) : Number.NaN,
    gzipKiB: size ? Number(size[2]) : Number.NaN,
    cleanup: () => rmSync(outdir, { recursive: true, force: true }),
  };
}

/** Total CPU seconds (user + system) of a process so far, from /proc/<pid>/stat (Linux), in clock ticks. */
export function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the parenthesised command name; utime and stime are fields 14 and 15 (1-based).
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks / clockTicks();
}

/**
 * A CPU clock of a process to the nanosecond (Linux): the run time the scheduler counted for each of its
 * threads (`/proc/<pid>/task/<tid>/schedstat`, first field), summed. /proc/<pid>/stat counts in clock
 * ticks (10 ms): ±10 ms on a row of 40 requests of 1.3 ms each is ±20 % of a floor, which alone could flip
 * a verdict. A thread that has exited keeps the last time read of it, so the clock never goes back (what
 * it ran after that read is lost, a thread's last moments). Which clock is decided at the first read and
 * kept: a clock that switched from nanoseconds to ticks mid-run would jump. Clock ticks where the kernel
 * keeps no schedstat.
 */
export function cpuClock(pid) {
  const threads = new Map();
  const readThreads = () => {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const ns = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
        if (Number.isFinite(ns)) {
          threads.set(tid, ns);
        }
      } catch {}
    }
    let total = 0;
    for (const ns of threads.values()) {
      total += ns;
    }
    return total / 1e9;
  };
  let precise;
  try {
    precise = readThreads() > 0;
  } catch {
    precise = false;
  }
  return () => (precise ? readThreads() : cpuSeconds(pid));
}

let ticksPerSecond;
function clockTicks() {
  if (ticksPerSecond === undefined) {
    ticksPerSecond = 100;
    try {
      ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;
    } catch {}
  }
  return ticksPerSecond;
}

/** workerd processes started by this Node process (Miniflare spawns exactly one per instance). */
function childWorkerdPids() {
  const pids = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (comm.startsWith("workerd") && ppid === process.pid) {
        pids.push(Number(entry));
      }
    } catch {}
  }
  return pids;
}

/** A tiny stand-in for a service the bench does not run (the notify Worker): accepts and drops. */
const acceptAll = async () => new Response(JSON.stringify({ accepted: true }), { status: 202 });

/**
 * The same stand-in that also keeps what it was sent, for browser journeys that follow an emailed link:
 * each request's service, method, path and JSON body, in order. Kept in this Node process's memory.
 */
function keepingStandIn(service, outbox, arrivals) {
  // The notify Worker's delivery log, for the operator's console (scripts/lib/notify-standin.mjs).
  const log = service === "NOTIFY" ? deliveryLog() : undefined;
  return async (request) => {
    const url = new URL(request.url);
    const logged = log?.answer(request.method, url);
    if (logged) {
      return logged;
    }
    const text = await request.text();
    let body = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {}
    outbox.push({ service, method: request.method, path: url.pathname, body });
    for (const arrived of arrivals) {
      arrived();
    }
    arrivals.clear();
    if (log && request.method === "POST" && /^\/v1\/(emails|whatsapp|push)\//.test(url.pathname)) {
      const messageIds = log.record(url.pathname, body);
      return new Response(JSON.stringify({ accepted: true, messageIds, replayed: false }), { status: 202 });
    }
    return acceptAll();
  };
}

/**
 * Serves a Worker config's bundle on workerd.
 * @param {{ config?: string, script?: string, bundle?: Awaited<ReturnType<typeof bundleWorker>>, vars?: Record<string,string>, persistTo?: string,
 *   durableObjects?: Record<string, string>, d1Databases?: Record<string, { id: string }>, onLine?: (line: string) => void,
 *   inspectorPort?: number, browser?: boolean, assets?: boolean, outbox?: boolean }} opts
 *   `d1Databases` adds (or replaces) D1 bindings, e.g. more tenant slots than the config declares.
 * `assets` serves the config's static assets as a deploy does (the web app and Swagger UI's files in
 * public/, which must be built: scripts/build-web.mjs): Miniflare's asset router in front of the Worker,
 * with the config's `not_found_handling` (the app's index.html for a page load) and `run_worker_first`
 * paths, and public/_headers. Off, the benches measure the Worker alone and `ASSETS` accepts and drops.
 * `browser` keeps the config's Browser Rendering binding (letter PDFs): miniflare then launches the Chrome
 * it finds under `$XDG_CACHE_HOME/.wrangler/chrome` (scripts/setup-chromium.sh's wrapper when that is the
 * project's `.cache`), and would download one if none were there, so it is off unless asked for.
 * `outbox` makes the service stand-ins keep what they were sent (`outbox()` on the answer): the emails and
 * WhatsApp messages the Worker sends, with their links. Off, they drop it, as the benches expect.
 * `inspectorPort` opens the DevTools inspector (CPU profiles: scripts/profile-route.mjs); never in a
 * measured run.
 */
export async function startWorkerd(opts = {}) {
  const config = opts.config ?? "wrangler.toml";
  const bundle = opts.bundle ?? (await bundleWorker(config, { script: opts.script }));
  const { workerOptions } = unstable_getMiniflareWorkerOptions(join(root, config));
  const {
    assets,
    browserRendering,
    cronTriggers: _crons,
    modulesRules: _rules,
    serviceBindings = {},
    ...bindingOptions
  } = workerOptions;
  const devPepper = opts.persistTo ? devVar("PASSWORD_PEPPER") : undefined;
  const name = "bench-worker";
  // Every console line of the Worker is drained and counted (as Workers Logs would collect it), never
  // echoed: printing it is the terminal's cost, not the Worker's.
  let lines = 0;
  const onLog = ({ message }) => {
    lines++;
    opts.onLine?.(message);
  };
  const persistRoot = opts.persistTo ? join(opts.persistTo, "v3") : undefined;
  if (persistRoot) {
    mkdirSync(persistRoot, { recursive: true });
  }
  const outbox = [];
  const arrivals = new Set();
  const standIn = (service) => (opts.outbox ? keepingStandIn(service, outbox, arrivals) : acceptAll);
  const before = new Set(childWorkerdPids());
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      ...(persistRoot ? { resourcePersistencePath: persistRoot } : {}),
      ...(opts.inspectorPort ? { inspectorPort: opts.inspectorPort } : {}),
      handleStructuredLogs: onLog,
      workers: [
        {
          ...bindingOptions,
          ...(opts.browser && browserRendering ? { browserRendering } : {}),
          ...(opts.assets && assets ? { assets } : {}),
          name,
          rootPath: root,
          modules: true,
          modulesRoot: bundle.outdir,
          scriptPath: bundle.main,
          bindings: {
            ...bindingOptions.bindings,
            ...TEST_SECRETS,
            ...(devPepper ? { PASSWORD_PEPPER: devPepper } : {}),
            ...(opts.vars ?? {}),
          },
          durableObjects: { ...bindingOptions.durableObjects, ...(opts.durableObjects ?? {}) },
          d1Databases: { ...bindingOptions.d1Databases, ...(opts.d1Databases ?? {}) },
          serviceBindings: {
            ...Object.fromEntries(Object.keys(serviceBindings).map((k) => [k, standIn(k)])),
            ...(opts.assets && assets ? {} : { ASSETS: acceptAll }),
          },
          unsafeDirectSockets: [{ host: "127.0.0.1", port: 0, proxy: false }],
          ...(opts.inspectorPort ? { unsafeInspectorProxy: true } : {}),
        },
      ],
    }),
  );
  await mf.ready;
  const url = (await mf.unsafeGetDirectURL(name)).toString().replace(/\/$/, "");
  const pid = childWorkerdPids().find((p) => !before.has(p));
  if (!pid) {
    await mf.dispose();
    throw new Error("workerd process not found under this Node process");
  }
  const version = (pkg) =>
    JSON.parse(readFileSync(join(root, "node_modules", pkg, "package.json"), "utf8")).version;
  return {
    url,
    pid,
    runtime: `${version("workerd")} via Miniflare ${version("miniflare")} (direct socket)`,
    mf,
    bundle,
    /** CPU seconds the workerd process has used so far, to the nanosecond where Linux says (`cpuClock`). */
    cpu: cpuClock(pid),
    logLines: () => lines,
    /** What the service stand-ins were sent so far (empty unless started with `outbox`). */
    outbox: () => [...outbox],
    /** Resolves when the stand-ins are sent their next request (a test awaits the work, not the clock). */
    nextArrival: () => new Promise((resolve) => arrivals.add(resolve)),
    stop: async () => {
      await mf.dispose();
      bundle.cleanup();
    },
  };
}

export function workerdAvailable() {
  return existsSync(join(root, "node_modules", "workerd"));
}
