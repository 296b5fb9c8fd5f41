// Provisioning and deploy, as data: what the Worker configs ask for (desired), what the account has
// (inspect, through wrangler's read-only commands), the difference (plan), and the changes (apply).
// Every wrangler call goes through an injected `run(args) => stdout` so tests drive the same code
// against a fake wrangler with recorded outputs (test/scripts/).
//
// Resources are created with wrangler's own resource commands (`d1 create`, `r2 bucket create`,
// `queues create`), not its automatic provisioning at deploy: the tenant slots must be bound under
// fixed binding names with their ids in wrangler.toml (the API picks a slot by binding at run time, and
// local development keys its state by the same config), the plan must be exact before anything
// changes, and every step has to be repeatable one command at a time from the runbook.
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { parse } from "smol-toml";

/** Deploy order: each Worker binds the one before it (API → notify service, ticket-mail → API). */
export const DEPLOY_ORDER = [
  "workers/notify/wrangler.toml",
  "wrangler.toml",
  "workers/ticket-mail/wrangler.toml",
];

/** Per-Worker gzip budget for the uploaded bundle (Workers Free allows 3 MiB; we keep well under). */
export const BUNDLE_BUDGET_BYTES = 1024 * 1024;

/**
 * Where new D1 primaries live (ADR 0036): Asia-Pacific, the region nearest Indonesian residents, instead
 * of wherever the operator running the command happens to be. `WARGA_D1_LOCATION` overrides it.
 */
export const D1_LOCATION = process.env.WARGA_D1_LOCATION || "apac";

/** The ids `npm run dev` and the slot tool (`--local`) write: never an account's real database. */
export const PLACEHOLDER_ID = /^0{8}-0{4}-0{4}-0{4}-[0-9a-f]{12}$/;

/**
 * Secrets each Worker needs before it may be deployed, from its config: always-required ones, the
 * ones a chosen provider needs, and anything the config lists under `[secrets] required`.
 * Optional secrets (Turnstile, push credentials) are reported but do not stop a deploy. Rotation
 * secrets (`JWT_SECRET_PREVIOUS`) are normally unset: the plan mentions them only while one is set, as
 * a reminder to delete it once the overlap is over (docs/operations.md "Rotating secrets").
 */
export function secretsFor(configPath, config) {
  const vars = config.vars ?? {};
  const required = new Set(config.secrets?.required ?? []);
  const optional = new Set();
  const rotation = [];
  if (configPath === "wrangler.toml") {
    rotation.push("JWT_SECRET_PREVIOUS");
    for (const name of ["JWT_SECRET", "PASSWORD_PEPPER", "ARCHIVE_SIGNING_KEY", "INTERNAL_API_KEY"]) {
      required.add(name);
    }
    let providers = {};
    try {
      providers = JSON.parse(vars.OIDC_PROVIDERS ?? "{}");
    } catch {
      providers = {};
    }
    for (const name of Object.keys(providers)) {
      required.add(`OIDC_${name.toUpperCase().replace(/-/g, "_")}_CLIENT_SECRET`);
    }
    optional.add("TURNSTILE_SECRET_KEY");
  }
  if (configPath === "workers/notify/wrangler.toml") {
    required.add("INTERNAL_API_KEY");
    if (vars.EMAIL_PROVIDER === "http") {
      required.add("EMAIL_HTTP_API_KEY");
    }
    if (vars.WHATSAPP_PROVIDER === "cloud") {
      required.add("WHATSAPP_CLOUD_TOKEN");
    } else {
      required.add("WHATSAPP_GATEWAY_TOKEN");
    }
    optional.add("FCM_SERVICE_ACCOUNT");
  }
  for (const name of required) {
    optional.delete(name);
  }
  return { required: [...required], optional: [...optional], rotation };
}

/** What the configs ask for. `configs`: `{ path, text }` for each Worker config, in any order. */
export function desiredResources(configs) {
  const parsed = configs.map(({ path, text }) => ({ path, text, config: parse(text) }));
  const databases = [];
  const buckets = new Set();
  const queues = new Set();
  const workers = [];
  for (const { path, config } of parsed) {
    for (const db of config.d1_databases ?? []) {
      databases.push({
        config: path,
        binding: db.binding,
        name: db.database_name,
        id: db.database_id,
        migrated: Boolean(db.migrations_dir),
      });
    }
    for (const bucket of config.r2_buckets ?? []) {
      buckets.add(bucket.bucket_name);
    }
    for (const producer of config.queues?.producers ?? []) {
      queues.add(producer.queue);
    }
    for (const consumer of config.queues?.consumers ?? []) {
      queues.add(consumer.queue);
      if (consumer.dead_letter_queue) {
        queues.add(consumer.dead_letter_queue);
      }
    }
    workers.push({
      config: path,
      name: config.name,
      secrets: secretsFor(path, config),
      durableObjectMigrations: (config.migrations ?? []).map((m) => m.tag),
    });
  }
  const rank = (path) => {
    const index = DEPLOY_ORDER.indexOf(path);
    return index === -1 ? DEPLOY_ORDER.length : index;
  };
  workers.sort((a, b) => rank(a.config) - rank(b.config));
  return { databases, buckets: [...buckets], queues: [...queues], workers };
}

/** An error from wrangler's exit, with what it printed. */
function output(error) {
  return `${error?.stdout ?? ""}\n${error?.stderr ?? ""}\n${error?.message ?? ""}`;
}

const WORKER_NOT_FOUND = /not found|does not exist|\[code: 10007\]/i;

/** Rows of a table wrangler prints with box-drawing borders (`logger.table`), as objects by header. */
export function parseTable(text) {
  const rows = text
    .split("\n")
    .filter((line) => line.includes("│"))
    .map((line) =>
      line
        .split("│")
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  if (!rows.length) {
    return [];
  }
  const [head, ...body] = rows;
  return body.map((cells) => Object.fromEntries(head.map((h, i) => [h, cells[i] ?? ""])));
}

/** Names from `wrangler r2 bucket list` (labelled values: `name: …` then `creation_date: …`). */
export function parseBucketList(text) {
  return [...text.matchAll(/^name:\s+(\S+)\s*$/gm)].map((m) => m[1]);
}

/** Pending migration names from `wrangler d1 migrations list` (none: "No migrations to apply!"). */
export function parsePendingMigrations(text) {
  if (/No migrations to apply/i.test(text)) {
    return [];
  }
  return parseTable(text)
    .map((row) => row.name ?? row.Name)
    .filter(Boolean);
}

/** What the account has, through read-only wrangler commands. */
export async function inspect(run, desired) {
  const d1 = JSON.parse(await run(["d1", "list", "--json"]));
  const databases = new Map(d1.map((db) => [db.name, db.uuid]));
  const buckets = new Set(parseBucketList(await run(["r2", "bucket", "list"])));
  const queues = new Set(parseTable(await run(["queues", "list"])).map((row) => row.name));

  const pending = new Map();
  for (const db of desired.databases.filter((d) => d.migrated && databases.has(d.name))) {
    const key = `${db.config}:${db.name}`;
    const out = await run(["d1", "migrations", "list", db.name, "-c", db.config, "--remote"]);
    pending.set(key, parsePendingMigrations(out));
  }

  const workers = new Map();
  for (const worker of desired.workers) {
    let secrets = [];
    let exists = true;
    try {
      secrets = JSON.parse(await run(["secret", "list", "-c", worker.config, "--format", "json"])).map(
        (s) => s.name,
      );
    } catch (error) {
      if (!WORKER_NOT_FOUND.test(output(error))) {
        throw error;
      }
      exists = false;
    }
    // The deployed version's tag is the digest of what was deployed (see `bundleDigest`).
    let deployedTag = null;
    if (exists) {
      try {
        const status = JSON.parse(await run(["deployments", "status", "-c", worker.config, "--json"]));
        const versionId = status?.versions?.[0]?.version_id;
        if (versionId) {
          const version = JSON.parse(
            await run(["versions", "view", versionId, "-c", worker.config, "--json"]),
          );
          deployedTag = version?.annotations?.["workers/tag"] ?? null;
        }
      } catch (error) {
        // A draft Worker (created by `wrangler secret put`) has no deployment yet.
        if (!/no deployments|not found|\[code: 10007\]/i.test(output(error))) {
          throw error;
        }
      }
    }
    workers.set(worker.config, { exists, secrets, deployedTag });
  }
  return { databases, buckets, queues, pending, workers };
}

/**
 * The difference: `{ databases, buckets, queues, migrations, secrets, workers }`, each entry saying
 * what exists and what would change. `digests`: config path → digest of what would be deployed.
 */
export function plan(desired, state, digests = {}) {
  const databases = desired.databases.map((db) => {
    const accountId = state.databases.get(db.name);
    let action = "ok";
    if (!accountId) {
      action = "create";
    } else if (db.id !== accountId) {
      action = PLACEHOLDER_ID.test(db.id) ? "record" : "mismatch";
    }
    return { ...db, accountId: accountId ?? null, action };
  });
  const migrations = databases
    .filter((db) => db.migrated && db.action !== "mismatch")
    .map((db) => ({
      config: db.config,
      name: db.name,
      pending: db.action === "create" ? null : (state.pending.get(`${db.config}:${db.name}`) ?? []),
    }))
    .filter((m) => m.pending === null || m.pending.length > 0);
  const buckets = desired.buckets.map((name) => ({
    name,
    action: state.buckets.has(name) ? "ok" : "create",
  }));
  const queues = desired.queues.map((name) => ({ name, action: state.queues.has(name) ? "ok" : "create" }));
  const secrets = [];
  const overlaps = [];
  const workers = desired.workers.map((worker) => {
    const live = state.workers.get(worker.config) ?? { exists: false, secrets: [], deployedTag: null };
    for (const name of worker.secrets.rotation ?? []) {
      if (live.secrets.includes(name)) {
        overlaps.push({ worker: worker.name, config: worker.config, name });
      }
    }
    for (const name of worker.secrets.required) {
      if (!live.secrets.includes(name)) {
        secrets.push({ worker: worker.name, config: worker.config, name, required: true });
      }
    }
    for (const name of worker.secrets.optional) {
      if (!live.secrets.includes(name)) {
        secrets.push({ worker: worker.name, config: worker.config, name, required: false });
      }
    }
    const digest = digests[worker.config] ?? null;
    const upToDate = live.exists && digest !== null && live.deployedTag === digest;
    return {
      name: worker.name,
      config: worker.config,
      // Ids still to record change the bundle: apply compares the digest again after recording them.
      idsPending: databases.some((db) => db.config === worker.config && db.action !== "ok"),
      exists: live.exists,
      digest,
      deployedTag: live.deployedTag,
      action: upToDate ? "ok" : "deploy",
      durableObjectMigrations: worker.durableObjectMigrations,
    };
  });
  return { databases, buckets, queues, migrations, secrets, overlaps, workers };
}

/** Whether applying the plan would change anything. */
export function planChanges(p) {
  return (
    p.databases.some((d) => d.action !== "ok") ||
    p.buckets.some((b) => b.action !== "ok") ||
    p.queues.some((q) => q.action !== "ok") ||
    p.migrations.length > 0 ||
    p.workers.some((w) => w.action !== "ok")
  );
}

export function secretCommand(secret) {
  return `npx wrangler secret put ${secret.name} -c ${secret.config}`;
}

/** The plan as the operator reads it. */
export function formatPlan(p) {
  const lines = [];
  const mark = (action) =>
    action === "ok" ? "  exists   " : action === "create" ? "+ create   " : `~ ${action.padEnd(9)}`;
  lines.push("D1 databases:");
  for (const db of p.databases) {
    const id = db.accountId ? ` ${db.accountId}` : "";
    const note =
      db.action === "record"
        ? ` (config holds placeholder ${db.id}: record the account's id)`
        : db.action === "mismatch"
          ? ` (config says ${db.id}: fix by hand, nothing is changed)`
          : "";
    lines.push(`  ${mark(db.action)}${db.name} [${db.binding} in ${db.config}]${id}${note}`);
  }
  lines.push("R2 buckets:");
  for (const b of p.buckets) {
    lines.push(`  ${mark(b.action)}${b.name}`);
  }
  lines.push("Queues:");
  for (const q of p.queues) {
    lines.push(`  ${mark(q.action)}${q.name}`);
  }
  lines.push("Migrations:");
  if (!p.migrations.length) {
    lines.push("    every database is up to date");
  }
  for (const m of p.migrations) {
    lines.push(`  ~ migrate  ${m.name}: ${m.pending === null ? "all (new database)" : m.pending.join(", ")}`);
  }
  lines.push("Workers (deploy order):");
  for (const w of p.workers) {
    const dos = w.durableObjectMigrations.length
      ? ` Durable Object migrations ${w.durableObjectMigrations.join(", ")}${w.exists ? " (deploy applies any after the live tag)" : " (all applied by the first deploy)"}`
      : "";
    const why =
      w.action === "ok"
        ? "deployed version matches"
        : !w.exists
          ? "not deployed yet"
          : w.idsPending
            ? "compared again once database ids are recorded"
            : "changed since the deployed version";
    lines.push(`  ${w.action === "ok" ? "  up to date" : "~ deploy   "} ${w.name} (${why})${dos}`);
  }
  const required = p.secrets.filter((s) => s.required);
  const optional = p.secrets.filter((s) => !s.required);
  lines.push("Secrets:");
  if (!p.secrets.length) {
    lines.push("    all set");
  }
  for (const s of required) {
    lines.push(`  ! missing  ${s.worker} ${s.name}: ${secretCommand(s)}`);
  }
  for (const s of optional) {
    lines.push(`    optional ${s.worker} ${s.name} unset: ${secretCommand(s)}`);
  }
  for (const s of p.overlaps ?? []) {
    lines.push(
      `    overlap  ${s.worker} ${s.name} is set (key rotation); once the overlap is over: npx wrangler secret delete ${s.name} -c ${s.config}`,
    );
  }
  lines.push(planChanges(p) ? "Changes pending: `npm run deploy` applies them." : "Nothing to change.");
  return lines.join("\n");
}

/** Writes `id` as the database_id of `binding` in a wrangler.toml text (the block that binding opens). */
export function recordDatabaseId(text, binding, id) {
  const start = text.search(new RegExp(`^binding\\s*=\\s*"${binding}"\\s*$`, "m"));
  if (start === -1) {
    throw new Error(`no binding ${binding} in the config`);
  }
  const rest = text.slice(start);
  const next = rest.slice(1).search(/^\[\[/m);
  const block = next === -1 ? rest : rest.slice(0, next + 1);
  const updated = block.replace(/^database_id\s*=\s*"[^"]*"/m, `database_id = "${id}"`);
  if (updated === block) {
    throw new Error(`binding ${binding} has no database_id line`);
  }
  return text.slice(0, start) + updated + rest.slice(block.length);
}

const CREATED_ID =
  /database_id\s*"?\s*[=:]\s*"?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"?/i;

/**
 * Dry-run bundles every Worker into a temporary folder: the gzip size of what would be uploaded and a
 * digest of it plus the config (so a changed var or binding counts as a change).
 */
export async function bundle(run, root, configPath) {
  const outdir = mkdtempSync(join(tmpdir(), "warga-bundle-"));
  try {
    await run(["deploy", "--dry-run", "--outdir", outdir, "-c", configPath]);
    const hash = createHash("sha256");
    hash.update(readFileSync(join(root, configPath)));
    let gzipBytes = 0;
    let rawBytes = 0;
    const walk = (dir) => {
      for (const entry of readdirSync(dir).sort()) {
        const path = join(dir, entry);
        if (statSync(path).isDirectory()) {
          walk(path);
        } else if (!entry.endsWith(".map") && entry !== "README.md") {
          const bytes = readFileSync(path);
          hash.update(relative(outdir, path)).update(bytes);
          rawBytes += bytes.length;
          gzipBytes += gzipSync(bytes, { level: 9 }).length;
        }
      }
    };
    walk(outdir);
    // Worker version tags are short: 16 hex digits of the digest are plenty.
    return { config: configPath, digest: hash.digest("hex").slice(0, 16), rawBytes, gzipBytes };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/**
 * Applies a plan: stops first on missing required secrets or mismatched ids (nothing changed), then
 * creates what is missing, records ids in the configs, migrates, and deploys the Workers in order.
 * `log` receives one line per change.
 */
export async function apply(run, root, p, log = console.log) {
  const missing = p.secrets.filter((s) => s.required);
  if (missing.length) {
    const error = new Error(
      `missing secrets, nothing was changed:\n${missing.map((s) => `  ${s.worker} ${s.name}: ${secretCommand(s)}`).join("\n")}`,
    );
    error.code = "missing_secrets";
    throw error;
  }
  const mismatched = p.databases.filter((db) => db.action === "mismatch");
  if (mismatched.length) {
    throw new Error(
      `config ids differ from the account's, nothing was changed:\n${mismatched
        .map((db) => `  ${db.name} [${db.binding} in ${db.config}]: config ${db.id}, account ${db.accountId}`)
        .join("\n")}`,
    );
  }
  for (const b of p.buckets.filter((b) => b.action === "create")) {
    await run(["r2", "bucket", "create", b.name]);
    log(`created R2 bucket ${b.name}`);
  }
  for (const q of p.queues.filter((q) => q.action === "create")) {
    await run(["queues", "create", q.name]);
    log(`created queue ${q.name}`);
  }
  // One database name can be bound by several configs: create it once.
  const created = new Map();
  const recorded = new Set();
  for (const db of p.databases.filter((d) => d.action !== "ok")) {
    let id = db.accountId ?? created.get(db.name);
    if (!id) {
      const out = await run(["d1", "create", db.name, "--location", D1_LOCATION]);
      id = CREATED_ID.exec(out)?.[1];
      if (!id) {
        const listed = JSON.parse(await run(["d1", "list", "--json"])).find((d) => d.name === db.name);
        id = listed?.uuid;
      }
      if (!id) {
        throw new Error(`could not read ${db.name}'s id from wrangler's answer:\n${out}`);
      }
      created.set(db.name, id);
      log(`created D1 database ${db.name} ${id}`);
    }
    const file = join(root, db.config);
    // Written after every database, so a failure half way keeps the ids already recorded.
    writeFileSync(file, recordDatabaseId(readFileSync(file, "utf8"), db.binding, id));
    recorded.add(db.config);
    log(`recorded ${db.binding} = ${id} in ${db.config}`);
  }
  for (const m of p.migrations) {
    await run(["d1", "migrations", "apply", m.name, "-c", m.config, "--remote"]);
    log(`migrated ${m.name}`);
  }
  for (const w of p.workers) {
    // A config whose ids were just recorded bundles differently from the plan's digest: take it again,
    // so the tag matches what ships and an unchanged Worker is still left alone.
    const digest =
      recorded.has(w.config) || !w.digest ? (await bundle(run, root, w.config)).digest : w.digest;
    if (w.exists && w.deployedTag === digest) {
      continue;
    }
    await run(["deploy", "-c", w.config, "--tag", digest, "--message", `npm run deploy ${digest}`]);
    log(`deployed ${w.name} (${digest})`);
  }
}

/** The Worker configs under `root`, as `{ path, text }`. */
export function readConfigs(root) {
  return DEPLOY_ORDER.filter((path) => existsSync(join(root, path))).map((path) => ({
    path,
    text: readFileSync(join(root, path), "utf8"),
  }));
}
