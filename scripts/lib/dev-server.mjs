// Starts `wrangler dev` on loopback for browser tests and benchmarks, and stops it again.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../..", import.meta.url));

export const TEST_SECRETS = {
  JWT_SECRET: "local-bench-secret-that-is-long-enough-000000",
  INTERNAL_API_KEY: "local-bench-internal-key-long-enough-000000",
  PASSWORD_PEPPER: "local-bench-password-pepper-long-enough-0000",
  ARCHIVE_SIGNING_KEY: "local-bench-archive-signing-key-long-enough-0",
};

/** A value of the main Worker's `.dev.vars`, if the file and the name exist. */
export function devVar(name) {
  const file = join(root, ".dev.vars");
  return existsSync(file)
    ? new RegExp(`^${name}=(.*)$`, "m").exec(readFileSync(file, "utf8"))?.[1]
    : undefined;
}

/** A free loopback port, asked of the OS. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export function projectEnv(extra = {}) {
  return {
    ...process.env,
    // The project's pinned Node 22 (devDependency `node`) first: wrangler refuses older ones.
    PATH: `${join(root, "node_modules", ".bin")}:${process.env.PATH ?? ""}`,
    WRANGLER_SEND_METRICS: "false",
    XDG_CONFIG_HOME: join(root, ".cache", "config"),
    XDG_CACHE_HOME: join(root, ".cache"),
    WRANGLER_LOG_PATH: join(root, ".cache", "wrangler-logs"),
    ...extra,
  };
}

/**
 * @param {{ configs?: string[], script?: string, vars?: Record<string,string>, persistTo?: string, timeoutMs?: number }} opts
 */
export async function startDevServer(opts = {}) {
  const port = await freePort();
  const inspector = await freePort();
  const persistTo = opts.persistTo ?? mkdtempSync(join(tmpdir(), "warga-dev-"));
  // A server on the dev state (benchmarks) must hash passwords with the dev pepper: the accounts there
  // were upgraded to peppered hashes by `npm run dev` sign-ins (ADR 0012).
  const devPepper = opts.persistTo ? devVar("PASSWORD_PEPPER") : undefined;
  const vars = {
    ...TEST_SECRETS,
    ...(devPepper ? { PASSWORD_PEPPER: devPepper } : {}),
    ...(opts.vars ?? {}),
  };
  const args = [
    "dev",
    ...(opts.script ? [opts.script] : []),
    ...(opts.configs ?? ["wrangler.toml"]).flatMap((c) => ["-c", c]),
  ];
  args.push("--ip", "127.0.0.1", "--port", String(port), "--inspector-port", String(inspector));
  args.push("--persist-to", persistTo, "--show-interactive-dev-session=false", "--log-level", "warn");
  for (const [k, v] of Object.entries(vars)) {
    args.push("--var", `${k}:${v}`);
  }
  const child = spawn(join(root, "node_modules", ".bin", "wrangler"), args, {
    cwd: root,
    env: projectEnv(),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) {
        resolve();
        return;
      }
      child.once("exit", () => resolve());
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        resolve();
      }
      setTimeout(() => {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {}
      }, 5000).unref();
    });
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`wrangler dev exited early:\n${output}`);
    }
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.status === 200 || res.status === 503) {
        return { url, port, persistTo, stop, output: () => output };
      }
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error(`wrangler dev did not answer within the time limit:\n${output}`);
}
