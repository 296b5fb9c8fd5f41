// Queue benchmark: 1,000 emails through the real local queue of `wrangler dev`, against a fake HTTP email
// provider on 127.0.0.1 that fails 30% of attempts with a 5xx. Checks that every message ends `sent` and
// that the provider saw each one succeed exactly once; prints messages per second and attempts per message.
//
//   node workers/notify/bench/queue-bench.mjs [--messages 1000] [--fail-rate 0.3] [--timeout 240]
//
// Only loopback traffic. The fake fails a given message at most 5 times in a row, so with MAX_ATTEMPTS 6 no
// message can die of bad luck (0.3^6 per message would otherwise kill one in about every second run).
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({
  options: {
    messages: { type: "string", default: "1000" },
    "fail-rate": { type: "string", default: "0.3" },
    timeout: { type: "string", default: "240" },
    concurrency: { type: "string", default: "20" },
  },
});
const TOTAL = Number(args.messages);
const FAIL_RATE = Number(args["fail-rate"]);
const TIMEOUT_MS = Number(args.timeout) * 1000;
const CONCURRENCY = Number(args.concurrency);
const MAX_FAILURES_PER_MESSAGE = 5;
const KEY = "bench-internal-key";

const here = import.meta.dirname;
const repo = path.resolve(here, "../../..");
const config = path.join(repo, "workers/notify/wrangler.toml");
// Run wrangler's JS entry on this Node: its shebang would pick whatever `node` is first on PATH.
const wranglerJs = path.join(repo, "node_modules/wrangler/bin/wrangler.js");
const stateDir = mkdtempSync(path.join(tmpdir(), "warga-notify-bench-"));
const cacheDir = path.join(repo, ".cache");
const childEnv = {
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  XDG_CONFIG_HOME: path.join(cacheDir, "xdg-config"),
  XDG_CACHE_HOME: cacheDir,
  WRANGLER_LOG_PATH: path.join(cacheDir, "wrangler-logs"),
  CI: "1",
};

// ---- fake provider (Resend-shaped) -------------------------------------------------------------------
const provider = {
  requests: 0,
  failures: 0,
  successes: new Map(),
  failuresPerKey: new Map(),
  firstAt: 0,
  lastSuccessAt: 0,
};
const fake = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => {
    body += chunk;
  });
  req.on("end", () => {
    provider.requests += 1;
    provider.firstAt ||= Date.now();
    const key = String(req.headers["idempotency-key"] ?? "");
    if (req.method !== "POST" || req.url !== "/emails" || !key || !body.includes('"subject"')) {
      res.writeHead(400, { "content-type": "application/json" }).end('{"name":"validation_error"}');
      return;
    }
    const failed = provider.failuresPerKey.get(key) ?? 0;
    if (failed < MAX_FAILURES_PER_MESSAGE && Math.random() < FAIL_RATE) {
      provider.failures += 1;
      provider.failuresPerKey.set(key, failed + 1);
      res.writeHead(503, { "content-type": "application/json" }).end('{"name":"internal_server_error"}');
      return;
    }
    provider.successes.set(key, (provider.successes.get(key) ?? 0) + 1);
    provider.lastSuccessAt = Date.now();
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: `fake-${key}` }));
  });
});
await new Promise((resolve) => fake.listen(0, "127.0.0.1", resolve));
const fakePort = fake.address().port;

// ---- the Worker under wrangler dev -------------------------------------------------------------------
const migrate = spawnSync(
  process.execPath,
  [
    wranglerJs,
    "d1",
    "migrations",
    "apply",
    "warga-notify",
    "--local",
    "-c",
    config,
    "--persist-to",
    stateDir,
  ],
  {
    env: childEnv,
    encoding: "utf8",
  },
);
if (migrate.status !== 0) {
  console.error(migrate.stdout, migrate.stderr);
  fake.close();
  rmSync(stateDir, { recursive: true, force: true });
  throw new Error("migrations failed");
}

const workerPort = 8800 + Math.floor(Math.random() * 150);
const vars = {
  INTERNAL_API_KEY: KEY,
  EMAIL_PROVIDER: "http",
  EMAIL_HTTP_URL: `http://127.0.0.1:${fakePort}/emails`,
  EMAIL_HTTP_API_KEY: "re_bench",
  RETRY_BASE_SECONDS: "1",
  RETRY_MAX_SECONDS: "4",
};
const dev = spawn(
  process.execPath,
  [
    wranglerJs,
    "dev",
    "-c",
    config,
    "--ip",
    "127.0.0.1",
    "--port",
    String(workerPort),
    "--persist-to",
    stateDir,
    "--inspector-port",
    String(workerPort + 1000),
    ...Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]),
  ],
  { env: childEnv, stdio: ["ignore", "pipe", "pipe"], detached: true },
);
let devLog = "";
dev.stdout.on("data", (d) => {
  devLog += d;
});
dev.stderr.on("data", (d) => {
  devLog += d;
});

function shutdown() {
  try {
    process.kill(-dev.pid, "SIGTERM");
  } catch {}
  fake.close();
  rmSync(stateDir, { recursive: true, force: true });
}

const base = `http://127.0.0.1:${workerPort}`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitForHealth() {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${base}/health`);
      if (res.ok) {
        return;
      }
    } catch {}
    await sleep(250);
  }
  throw new Error(`wrangler dev did not start:\n${devLog.slice(-2000)}`);
}

async function api(method, pathname, body) {
  const res = await fetch(`${base}${pathname}`, {
    method,
    headers: { "x-service-internal-key": KEY, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) {
    throw new Error(`${method} ${pathname} answered ${res.status}: ${text}`);
  }
  return JSON.parse(text);
}

try {
  await waitForHealth();

  // Enqueue.
  const ids = [];
  const enqueueStart = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < TOTAL) {
        const i = next++;
        const res = await api("POST", "/v1/emails/raw", {
          to: `warga${i}@bench.example`,
          subject: `Bench ${i}`,
          text: `Pesan uji ${i}`,
        });
        ids.push(...res.messageIds);
      }
    }),
  );
  const enqueueSeconds = (performance.now() - enqueueStart) / 1000;

  // Wait until the provider has seen every message succeed. Counting its successes is not enough: an
  // operator alert (a message still retrying after its second attempt) is an email to the same provider.
  const deliverStart = Date.now();
  const deadline = deliverStart + TIMEOUT_MS;
  while (ids.some((id) => !provider.successes.has(id)) && Date.now() < deadline) {
    await sleep(200);
  }
  await sleep(1500); // let the last log writes land and any stray duplicate show up

  // Read the delivery log back.
  const wanted = new Set(ids);
  const statuses = {};
  let attemptsLogged = 0;
  let cursor = null;
  do {
    const page = await api("GET", `/v1/messages?channel=email&limit=100${cursor ? `&cursor=${cursor}` : ""}`);
    for (const m of page.items) {
      if (wanted.has(m.id)) {
        statuses[m.status] = (statuses[m.status] ?? 0) + 1;
        attemptsLogged += m.attempts;
      }
    }
    cursor = page.nextCursor;
  } while (cursor);

  const duplicates = [...provider.successes.values()].filter((n) => n > 1).length;
  const missing = ids.filter((id) => !provider.successes.has(id)).length;
  const endToEnd = (provider.lastSuccessAt - (performance.timeOrigin + enqueueStart)) / 1000;
  const ok = statuses.sent === TOTAL && duplicates === 0 && missing === 0 && ids.length === TOTAL;

  console.log("notify queue benchmark (wrangler dev, local queue, fake email API on 127.0.0.1)");
  console.log(`  messages                 ${TOTAL}`);
  console.log(
    `  provider failure rate    ${(provider.failures / provider.requests).toFixed(3)} (target ${FAIL_RATE}, 5xx)`,
  );
  console.log(
    `  enqueue                  ${(TOTAL / enqueueSeconds).toFixed(1)} msg/s (${enqueueSeconds.toFixed(2)} s, ${CONCURRENCY} concurrent requests)`,
  );
  console.log(
    `  delivered end to end     ${(TOTAL / endToEnd).toFixed(1)} msg/s (${endToEnd.toFixed(2)} s from first enqueue to last success)`,
  );
  console.log(
    `  attempts per message     ${(provider.requests / TOTAL).toFixed(3)} seen by provider, ${(attemptsLogged / TOTAL).toFixed(3)} in the log`,
  );
  console.log(`  final statuses           ${JSON.stringify(statuses)}`);
  console.log(
    `  provider successes       ${provider.successes.size} distinct, ${duplicates} sent more than once, ${missing} never sent`,
  );
  console.log(`  result                   ${ok ? "OK: every message sent exactly once" : "FAILED"}`);
  console.log("  judged: counts only (not a time: judged as absolute figures); the rates are information");
  process.exitCode = ok ? 0 : 1;
} catch (err) {
  console.error(err);
  console.error(devLog.slice(-3000));
  process.exitCode = 1;
} finally {
  shutdown();
}
