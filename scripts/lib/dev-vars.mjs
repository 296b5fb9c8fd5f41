import { generateKeyPairSync, randomBytes } from "node:crypto";
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
  ensureVapidPair(main, configs);
}

/**
 * Web Push locally: one VAPID key pair, the public half for the API (the app subscribes with it), both
 * halves for the notification service (it signs with the private one). Written once, kept after.
 */
function ensureVapidPair(main, configs) {
  const notify = configs.find((config) => config.includes("workers/notify/"));
  if (!notify) {
    return;
  }
  const notifyFile = join(root, dirname(notify), ".dev.vars");
  const has = (file, name) =>
    existsSync(file) && new RegExp(`^${name}=`, "m").test(readFileSync(file, "utf8"));
  if (has(main, "VAPID_PUBLIC_KEY") && has(notifyFile, "VAPID_PRIVATE_KEY")) {
    return;
  }
  const jwk = generateKeyPairSync("ec", { namedCurve: "prime256v1" }).privateKey.export({ format: "jwk" });
  const point = Buffer.concat([
    Buffer.from([4]),
    Buffer.from(jwk.x, "base64url"),
    Buffer.from(jwk.y, "base64url"),
  ]);
  const publicKey = point.toString("base64url");
  const append = (file, lines) => {
    const present = existsSync(file) ? readFileSync(file, "utf8") : "";
    const kept = present
      .split("\n")
      .filter((line) => !/^VAPID_(PUBLIC|PRIVATE)_KEY=/.test(line))
      .join("\n");
    const prefix = kept && !kept.endsWith("\n") ? "\n" : "";
    writeFileSync(file, `${kept}${prefix}${lines.join("\n")}\n`);
  };
  append(main, [`VAPID_PUBLIC_KEY=${publicKey}`]);
  append(notifyFile, [`VAPID_PUBLIC_KEY=${publicKey}`, `VAPID_PRIVATE_KEY=${jwk.d}`]);
  console.log(".dev.vars: wrote a fresh local Web Push (VAPID) key pair");
}

/** A value from the main Worker's `.dev.vars` (benchmarks sign tokens with the local JWT secret). */
export function devSecret(name) {
  return new RegExp(`^${name}=(.*)$`, "m").exec(readFileSync(join(root, ".dev.vars"), "utf8"))?.[1];
}
