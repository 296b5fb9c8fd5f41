// A CPU profile of one route under load, on the same workerd the API bench uses (scripts/lib/workerd.mjs),
// through the DevTools inspector: where the Worker's own time goes per request, by function and by source
// file of the bundle. A tool for looking, not a measurement: the inspector itself costs time, so compare
// the shares, and take figures from `npm run bench -- api`.
//
//   node scripts/profile-route.mjs [route] [seconds]
//   route: tenant-read (default), bare, bare-d1, bare-row, bare-row-session, health, sign-in, login-limits,
//   gate, vote, path (PROFILE_PATH, as PROFILE_EMAIL)
// PROFILE_OUT=path.cpuprofile also writes the profile itself, for a look at who calls what.
// The bench state first (scripts/bench/state.mjs): a profile never touches `npm run dev`'s state.
import "./bench/state.mjs";
import { readFileSync, writeFileSync } from "node:fs";
import autocannon from "autocannon";
import { BENCH_DURABLE_OBJECTS } from "./bench/poll-votes.mjs";
import { prepareBenchState, startBenchWorkerd } from "./bench/server.mjs";
import { ensureDevVars } from "./lib/dev-vars.mjs";

const route = process.argv[2] ?? "tenant-read";
const seconds = Number(process.argv[3] ?? 5);
const INSPECTOR_PORT = Number(process.env.INSPECTOR_PORT ?? 9339);

// PROFILE_SKIP_SETUP=1 reuses the state a bench run left (migrated and seeded); PROFILE_STATE=dir profiles
// on another one, as a `BENCH_KEEP_STATE=1 npm run bench -- routes` leaves it (the large RT, in /tmp).
if (process.env.PROFILE_SKIP_SETUP || process.env.PROFILE_STATE) {
  ensureDevVars(["wrangler.toml"]);
} else {
  await prepareBenchState();
}
const server = await startBenchWorkerd({
  ...(process.env.PROFILE_STATE ? { persistTo: process.env.PROFILE_STATE } : {}),
  vars: { LOG_LEVEL: "info" },
  inspectorPort: INSPECTOR_PORT,
  durableObjects: BENCH_DURABLE_OBJECTS,
});
let ip = 0;
const signIn = async (email) => {
  const res = await fetch(`${server.url}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": `203.0.113.${(ip++ % 250) + 1}` },
    body: JSON.stringify({ email, password: "warga-demo-2026" }),
  });
  if (!res.ok) {
    throw new Error(`sign-in ${res.status} ${await res.text()}`);
  }
  return (await res.json()).accessToken;
};

try {
  const token = await signIn("sekretaris.rt01@warga.test");
  const targets = {
    "tenant-read": {
      url: `${server.url}/api/kependudukan/units/seed-unit-rt01-a1`,
      headers: { Authorization: `Bearer ${token}` },
    },
    bare: { url: `${server.url}/__bare` },
    "bare-d1": { url: `${server.url}/__bare-d1` },
    // The unit row the tenant read shows, read bare: on the binding, and through a D1 session (ADR 0036).
    "bare-row": { url: `${server.url}/__bare-row/sql` },
    "bare-row-session": { url: `${server.url}/__bare-row/session` },
    health: { url: `${server.url}/api/health` },
    "login-limits": { url: `${server.url}/__bare-login-limits`, connections: 1 },
    "sign-in": {
      url: `${server.url}/api/auth/login`,
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "warga1.rt01@warga.test", password: "warga-demo-2026" }),
      connections: 1,
    },
  };
  // Any GET of the API: `PROFILE_PATH=/api/visitor?status=menunggu PROFILE_EMAIL=… node scripts/profile-route.mjs path`.
  if (route === "path") {
    const who = await signIn(process.env.PROFILE_EMAIL ?? "sekretaris.rt01@warga.test");
    targets.path = {
      url: `${server.url}${process.env.PROFILE_PATH ?? "/api/health"}`,
      headers: { Authorization: `Bearer ${who}` },
    };
  }
  if (route === "gate") {
    // The bench's gate fixture: a device key and a pass already used, so every scan is the refusal path.
    const { clearBenchGateEvents, gateFixture } = await import("./bench/api-routes.mjs");
    await clearBenchGateEvents(server.mf);
    const gate = await gateFixture(server.url, { Authorization: `Bearer ${token}` });
    targets.gate = { url: `${server.url}/api/gate-hardware/webhook`, method: "POST", ...gate };
  }
  // Votes: the bench's burst (scripts/bench/poll-votes.mjs, BENCH_VOTERS residents at once), profiled whole.
  const voteBurst = async () => {
    const { measureVotes, seedVoters } = await import("./bench/poll-votes.mjs");
    const { TEST_SECRETS } = await import("./lib/dev-server.mjs");
    await seedVoters(server.mf);
    const staffToken = await signIn("sekretaris.rt02@warga.test");
    return {
      result: { requests: { total: Number(process.env.BENCH_VOTERS ?? 2000) } },
      // The profile covers the burst of votes alone, not the bare bursts measured around it.
      measure: (around) =>
        measureVotes({ url: server.url, jwtSecret: TEST_SECRETS.JWT_SECRET, staffToken, around }),
    };
  };
  const burst = route === "vote" ? await voteBurst() : null;
  if (burst) {
    targets.vote = {};
  }
  const target = targets[route];
  if (!target) {
    throw new Error(`unknown route ${route}; one of ${Object.keys(targets).join(", ")}`);
  }
  const load = (duration) =>
    new Promise((resolve, reject) =>
      autocannon({ connections: 8, ...target, duration }, (err, r) => (err ? reject(err) : resolve(r))),
    );
  if (!burst) {
    await load(2);
  }

  const list = await (await fetch(`http://127.0.0.1:${INSPECTOR_PORT}/json`)).json();
  const entry = list.find((t) => t.title?.includes("bench-worker")) ?? list[0];
  const { WebSocket: WS } = await import("ws");
  const ws = new WS(entry.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.on("open", resolve);
    ws.on("error", reject);
  });
  let nextId = 1;
  const pending = new Map();
  ws.on("message", (data) => {
    const msg = JSON.parse(String(data));
    if (msg.id && pending.has(msg.id)) {
      pending.get(msg.id)(msg);
      pending.delete(msg.id);
    }
  });
  const send = (method, params = {}) =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: 100 });
  let result;
  let stopped;
  if (burst) {
    await burst.measure({
      before: () => send("Profiler.start"),
      after: async () => {
        ({ result: stopped } = await send("Profiler.stop"));
      },
    });
    result = burst.result;
  } else {
    await send("Profiler.start");
    result = await load(seconds);
    ({ result: stopped } = await send("Profiler.stop"));
  }
  ws.close();
  const profile = stopped.profile;
  const requests = result.requests.total;
  // PROFILE_OUT=f.cpuprofile keeps the profile (Chrome DevTools opens it; so does any .cpuprofile viewer).
  if (process.env.PROFILE_OUT) {
    writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile));
  }

  // Bundle line → the source file esbuild noted above it (`// src/core/http/middleware.ts`).
  const bundle = readFileSync(server.bundle.main, "utf8").split("\n");
  const fileOfLine = [];
  let current = "?";
  for (let i = 0; i < bundle.length; i++) {
    const m = /^\/\/ (.+\.(?:ts|js|mjs|cjs))$/.exec(bundle[i]);
    if (m) {
      current = m[1].replace(/^node_modules\/(?:\.pnpm\/)?/, "");
    }
    fileOfLine[i] = current;
  }
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const parent = new Map();
  for (const n of profile.nodes) {
    for (const c of n.children ?? []) {
      parent.set(c, n.id);
    }
  }
  const label = (n) => {
    const f = n.callFrame;
    const file = f.url?.endsWith(".js") && f.lineNumber >= 0 ? (fileOfLine[f.lineNumber] ?? f.url) : f.url;
    return { fn: f.functionName || "(anonymous)", file: file || "(native)", line: f.lineNumber + 1 };
  };
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const idle = [...self.entries()]
    .filter(([id]) =>
      ["(idle)", "(program)", "(garbage collector)"].includes(byId.get(id).callFrame.functionName),
    )
    .map(([id, t]) => [byId.get(id).callFrame.functionName, t]);
  const perReq = (us) => (us / 1000 / requests).toFixed(3);
  console.log(`\n${route}: ${requests} requests in ${seconds}s, profile ${(total / 1000).toFixed(0)} ms`);
  for (const [name, t] of idle) {
    console.log(`  ${name}: ${perReq(t)} ms/request`);
  }
  const add = (map, key, t) => map.set(key, (map.get(key) ?? 0) + t);
  const selfByFn = new Map();
  const selfByFile = new Map();
  const inclByFile = new Map();
  // Self time charged to the nearest frame of the bundle on its stack: a native call (a Response, a URL,
  // console.log) or the D1 client counts for the file of ours, or the library's, that made it.
  const chargedToFile = new Map();
  const chargedToFn = new Map();
  for (const [id, t] of self) {
    const n = byId.get(id);
    const l = label(n);
    if (["(idle)", "(program)", "(garbage collector)", "(root)"].includes(l.fn)) {
      continue;
    }
    // The bundle's own line (trimmed) beside the function: anonymous functions are otherwise nameless.
    const text = n.callFrame.url?.endsWith(".js") ? (bundle[l.line - 1] ?? "").trim().slice(0, 60) : "";
    add(selfByFn, `${l.fn}  ${l.file}:${l.line}${text ? `  | ${text}` : ""}`, t);
    add(selfByFile, l.file, t);
    let caller = id;
    while (caller !== undefined && !byId.get(caller).callFrame.url?.endsWith(".js")) {
      caller = parent.get(caller);
    }
    const by =
      caller === undefined ? { fn: "(no bundle frame)", file: l.file, line: 0 } : label(byId.get(caller));
    add(chargedToFile, by.file, t);
    add(chargedToFn, `${by.fn}  ${by.file}:${by.line}`, t);
    // Inclusive by file: each file on the stack counted once per sample.
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const file = label(byId.get(cur)).file;
      if (!seen.has(file)) {
        seen.add(file);
        add(inclByFile, file, t);
      }
    }
  }
  const top = (map, n) => [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);
  console.log("\nself time by function (ms/request):");
  for (const [k, t] of top(selfByFn, 40)) {
    console.log(`  ${perReq(t).padStart(7)}  ${k}`);
  }
  console.log("\nself time by file (ms/request):");
  for (const [k, t] of top(selfByFile, 25)) {
    console.log(`  ${perReq(t).padStart(7)}  ${k}`);
  }
  console.log("\nself time charged to the nearest bundle frame, by file (ms/request):");
  for (const [k, t] of top(chargedToFile, 30)) {
    console.log(`  ${perReq(t).padStart(7)}  ${k}`);
  }
  console.log("\nthe same, by function (ms/request):");
  for (const [k, t] of top(chargedToFn, 40)) {
    console.log(`  ${perReq(t).padStart(7)}  ${k}`);
  }
  console.log("\ninclusive time by file (ms/request):");
  for (const [k, t] of top(inclByFile, 30)) {
    console.log(`  ${perReq(t).padStart(7)}  ${k}`);
  }
} finally {
  await server.stop();
}
