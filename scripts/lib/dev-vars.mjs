import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { root } from "./dev-server.mjs";

/** Each Worker reads `.dev.vars` beside its config; they share one internal key. */
export function ensureDevVars(configs) {
  const main = join(root, ".dev.vars");
  const secret = () => randomBytes(32).toString("base64url");
  const present = existsSync(main) ? readFileSync(main, "utf8") : "";
  // Secrets added in later versions are appended to an existing file, so an old checkout keeps working.
  const missing = ["JWT_SECRET", "INTERNAL_API_KEY", "PASSWORD_PEPPER", "ARCHIVE_SIGNING_KEY"].filter(
    (name) => !new RegExp(`^${name}=`, "m").test(present),
  );
  if (missing.length > 0) {
    const prefix = present && !present.endsWith("\n") ? "\n" : "";
    writeFileSync(main, `${present}${prefix}${missing.map((name) => `${name}=${secret()}\n`).join("")}`);
    console.log(`.dev.vars: wrote fresh local ${missing.join(", ")}`);
  }
  const key = /INTERNAL_API_KEY=(.*)/.exec(readFileSync(main, "utf8"))?.[1];
  for (const config of configs.slice(1)) {
    const file = join(root, dirname(config), ".dev.vars");
    if (!existsSync(file)) {
      writeFileSync(file, `INTERNAL_API_KEY=${key}\n`);
    }
  }
}

/** A value from the main Worker's `.dev.vars` (benchmarks sign tokens with the local JWT secret). */
export function devSecret(name) {
  return new RegExp(`^${name}=(.*)$`, "m").exec(readFileSync(join(root, ".dev.vars"), "utf8"))?.[1];
}
