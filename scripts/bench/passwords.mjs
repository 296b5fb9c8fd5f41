// What a sign-in costs, measured on the bench entry served by workerd in one run (ADR 0012): the login
// route against one bare PBKDF2 check of each password scheme (the first, PBKDF2-SHA256, and the current, peppered
// PBKDF2-SHA512) and a bare route. Sequential requests, interleaved rounds: PBKDF2 is CPU, so one at a
// time shows its cost without queueing on the single local thread.
import { prepareBenchState, startBenchWorkerd } from "./server.mjs";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PER_ROUND = 10;
const ACCOUNTS = [
  "admin.rt01@warga.test",
  "sekretaris.rt01@warga.test",
  "bendahara.rt01@warga.test",
  "warga1.rt01@warga.test",
  "warga2.rt01@warga.test",
  "warga3.rt01@warga.test",
  "admin.rt02@warga.test",
  "sekretaris.rt02@warga.test",
  "bendahara.rt02@warga.test",
  "warga1.rt02@warga.test",
];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
let ip = 0;

async function timed(url, init = {}) {
  const started = performance.now();
  const res = await fetch(url, {
    ...init,
    headers: { ...(init.headers ?? {}), "CF-Connecting-IP": `198.51.100.${(ip++ % 250) + 1}` },
  });
  await res.arrayBuffer();
  if (res.status !== 200) {
    throw new Error(`${url}: ${res.status}`);
  }
  return performance.now() - started;
}

export async function run() {
  await prepareBenchState();
  const server = await startBenchWorkerd({ vars: { LOG_LEVEL: "warn" } });
  try {
    const login = (n) =>
      timed(`${server.url}/api/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email: ACCOUNTS[n % ACCOUNTS.length], password: "warga-demo-2026" }),
      });
    // Warm up, and let every demo account's first-scheme hash be upgraded by its first sign-in.
    for (let n = 0; n < ACCOUNTS.length; n++) {
      await login(n);
    }
    await timed(`${server.url}/__bare`);
    await timed(`${server.url}/__bare-hash/legacy`);
    await timed(`${server.url}/__bare-hash/peppered`);
    const samples = { bare: [], legacy: [], peppered: [], login: [] };
    let n = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < PER_ROUND; i++) {
        samples.bare.push(await timed(`${server.url}/__bare`));
        samples.legacy.push(await timed(`${server.url}/__bare-hash/legacy`));
        samples.peppered.push(await timed(`${server.url}/__bare-hash/peppered`));
        samples.login.push(await login(n++));
      }
    }
    const p50 = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
    console.log(`\nPasswords on workerd (${ROUNDS}×${PER_ROUND} sequential requests each, interleaved)`);
    console.log("target                               p50 ms   / bare");
    const rows = [
      ["bare route", p50.bare],
      ["one PBKDF2-SHA256 check (first scheme)", p50.legacy],
      ["one peppered PBKDF2-SHA512 check", p50.peppered],
      ["POST /api/auth/login", p50.login],
    ];
    for (const [name, ms] of rows) {
      console.log(
        `${name.padEnd(36)} ${ms.toFixed(1).padStart(7)} ${(ms / p50.bare).toFixed(2).padStart(8)}`,
      );
    }
    console.log(
      `peppered SHA-512 / SHA-256 check = ${(p50.peppered / p50.legacy).toFixed(2)}; login / peppered check = ${(p50.login / p50.peppered).toFixed(2)}`,
    );
    return p50;
  } finally {
    await server.stop();
  }
}
