import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { root } from "./dev-server.mjs";

/** Each Worker reads `.dev.vars` beside its config; they share one internal key. */
export function ensureDevVars(configs) {
  const main = join(root, ".dev.vars");
  if (!existsSync(main)) {
    const secret = () => randomBytes(32).toString("base64url");
    writeFileSync(main, `JWT_SECRET=${secret()}\nINTERNAL_API_KEY=${secret()}\n`);
    console.log("wrote .dev.vars with fresh local secrets");
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
