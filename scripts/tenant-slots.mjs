// Adds tenant database slots when the pool runs low.
//   npm run slots:add -- 4            create 4 D1 databases with wrangler, append their bindings to
//                                     wrangler.toml, and migrate them (remote; then deploy)
//   npm run slots:add -- 4 --local    only append bindings (local development: no Cloudflare account)
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "./lib/dev-server.mjs";
import { D1_LOCATION } from "./lib/provision.mjs";
import { readConfig, targetArgs, wrangler } from "./lib/wrangler.mjs";

const CONFIG = join(root, "wrangler.toml");
const END = "# slots:end";

export function slotCountFromConfig() {
  return (readConfig("wrangler.toml").d1_databases ?? []).filter((db) => /^TENANT_DB_\d+$/.test(db.binding))
    .length;
}

const pad = (n) => String(n).padStart(2, "0");

function bindingBlock(slot, databaseId) {
  return `[[d1_databases]]
binding = "TENANT_DB_${pad(slot)}"
database_name = "warga-tenant-${pad(slot)}"
database_id = "${databaseId}"
migrations_dir = "migrations/tenant"
`;
}

async function createRemote(name) {
  const out = await wrangler(["d1", "create", name, "--location", D1_LOCATION]);
  const match = /database_id\s*[=:]\s*"?([0-9a-f-]{36})"?/i.exec(out);
  if (!match) {
    throw new Error(`could not read the database id from wrangler's answer:\n${out}`);
  }
  return match[1];
}

async function main() {
  const count = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? "1");
  const local = process.argv.includes("--local");
  const first = slotCountFromConfig() + 1;
  let text = readFileSync(CONFIG, "utf8");
  if (!text.includes(END)) {
    throw new Error(`wrangler.toml lacks the "${END}" marker the slot tool appends before`);
  }
  for (let slot = first; slot < first + count; slot++) {
    const name = `warga-tenant-${pad(slot)}`;
    const id = local ? `00000000-0000-0000-0000-${String(slot).padStart(12, "0")}` : await createRemote(name);
    text = text.replace(END, `\n${bindingBlock(slot, id)}${END}`);
    // Written after every slot, so a failure half way keeps the slots already created.
    writeFileSync(CONFIG, text);
    await wrangler(["d1", "migrations", "apply", name, "-c", "wrangler.toml", ...targetArgs(!local)]);
    console.log(`slot ${slot}: ${name} ${local ? "(local)" : id} bound and migrated`);
  }
  console.log(
    `${slotCountFromConfig()} slots declared; ${local ? "restart npm run dev" : "now run npm run deploy"}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main();
}
