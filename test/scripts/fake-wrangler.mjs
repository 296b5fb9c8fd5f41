// A fake `wrangler` for the deploy plan tests: an account held in memory, answering the commands
// scripts/lib/provision.mjs runs with the output formats wrangler 4.164 prints (samples recorded in
// ./recorded/). Every call is logged, so tests assert on what was run and what was not.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parse } from "smol-toml";

const RECORDED = join(import.meta.dirname, "recorded");
const recorded = (name) => readFileSync(join(RECORDED, name), "utf8");

/** Commands that change the account (or upload): `--plan` must run none of them. */
export const MUTATING = [
  "d1 create",
  "r2 bucket create",
  "queues create",
  "d1 migrations apply",
  "secret put",
  "deploy -c",
];

let counter = 0;
const uuid = () => {
  counter += 1;
  const hex = counter.toString(16).padStart(12, "0");
  return `7e57ab1e-0000-4000-8000-${hex}`;
};

/** wrangler's `logger.table` (cli-table3, no colour): the same box drawing recorded in queues-list.txt. */
function table(rows) {
  const head = Object.keys(rows[0] ?? { name: "" });
  const widths = head.map((h) => Math.max(h.length, ...rows.map((r) => String(r[h]).length)) + 2);
  const line = (l, m, r) => `${l}${widths.map((w) => "─".repeat(w)).join(m)}${r}`;
  const row = (cells) => `│${cells.map((c, i) => ` ${String(c).padEnd(widths[i] - 1)}`).join("│")}│`;
  const out = [line("┌", "┬", "┐"), row(head)];
  for (const r of rows) {
    out.push(line("├", "┼", "┤"), row(head.map((h) => r[h])));
  }
  out.push(line("└", "┴", "┘"));
  return out.join("\n");
}

function failure(stderr) {
  const error = new Error(`Command failed: wrangler\n${stderr}`);
  error.stderr = stderr;
  error.stdout = "";
  return error;
}

export class FakeWrangler {
  /**
   * @param {string} root the project copy the configs are read from
   * @param {{ databases?: {name: string, uuid?: string, applied?: "all" | number}[], buckets?: string[],
   *   queues?: string[], workers?: Record<string, { secrets?: string[], tag?: string | null }> }} account
   */
  constructor(root, account = {}) {
    this.root = root;
    this.calls = [];
    this.bundleExtra = {};
    this.databases = (account.databases ?? []).map((db) => ({
      name: db.name,
      uuid: db.uuid ?? uuid(),
      applied: this.#initialApplied(db),
    }));
    this.buckets = [...(account.buckets ?? [])];
    this.queues = [...(account.queues ?? [])];
    this.workers = new Map(
      Object.entries(account.workers ?? {}).map(([name, w]) => [
        name,
        {
          secrets: [...(w.secrets ?? [])],
          deployed: w.tag === undefined ? null : { id: uuid(), tag: w.tag },
        },
      ]),
    );
    this.run = this.run.bind(this);
  }

  #migrationFiles(name) {
    for (const config of ["wrangler.toml", "workers/notify/wrangler.toml"]) {
      const db = (this.#config(config).d1_databases ?? []).find((d) => d.database_name === name);
      if (db?.migrations_dir) {
        const dir = join(this.root, dirname(config), db.migrations_dir);
        return readdirSync(dir)
          .filter((f) => f.endsWith(".sql"))
          .sort();
      }
    }
    return [];
  }

  #initialApplied(db) {
    const files = this.#migrationFiles(db.name);
    if (db.applied === undefined || db.applied === "all") {
      return new Set(files);
    }
    return new Set(files.slice(0, db.applied));
  }

  #config(path) {
    return parse(readFileSync(join(this.root, path), "utf8"));
  }

  #option(args, flag) {
    const index = args.indexOf(flag);
    return index === -1 ? undefined : args[index + 1];
  }

  /** Commands run that change something. */
  mutations() {
    return this.calls.filter((c) => MUTATING.some((m) => c.startsWith(m)) && !c.includes("--dry-run"));
  }

  async run(args) {
    const line = args.join(" ");
    this.calls.push(line);
    const [a, b, c] = args;
    const configPath = this.#option(args, "-c");
    if (a === "d1" && b === "list") {
      const sample = JSON.parse(recorded("d1-list.json"))[0];
      return JSON.stringify(
        this.databases.map((db) => ({ ...sample, uuid: db.uuid, name: db.name })),
        null,
        2,
      );
    }
    if (a === "d1" && b === "create") {
      if (this.databases.some((db) => db.name === c)) {
        throw failure(
          `✘ [ERROR] A request to the Cloudflare API failed.\n  A database with that name already exists [code: 7502]`,
        );
      }
      const db = { name: c, uuid: uuid(), applied: new Set() };
      this.databases.push(db);
      return recorded("d1-create.txt")
        .replaceAll("warga-tenant-09", c)
        .replaceAll("warga_tenant_09", c.replaceAll("-", "_"))
        .replace("8d1e4b7a-3c2f-4e5d-9a6b-7c8d9e0f1a2b", db.uuid);
    }
    if (a === "d1" && b === "migrations") {
      const name = args[3];
      const db = this.databases.find((d) => d.name === name);
      if (!db) {
        throw failure(`✘ [ERROR] Couldn't find DB with name '${name}'`);
      }
      const pending = this.#migrationFiles(name).filter((f) => !db.applied.has(f));
      if (c === "list") {
        if (!pending.length) {
          return recorded("d1-migrations-list-none.txt");
        }
        const header = recorded("d1-migrations-list-pending.txt").split("┌")[0];
        return `${header}${table(pending.map((n) => ({ name: n })))}\n`;
      }
      for (const file of pending) {
        db.applied.add(file);
      }
      return `🚣 ${pending.length} commands executed successfully.\n`;
    }
    if (a === "r2" && b === "bucket" && c === "list") {
      const header = recorded("r2-bucket-list.txt").split("name:")[0];
      return (
        header +
        this.buckets
          .map((n) => `name:           ${n}\ncreation_date:  2026-11-20T03:14:02.511Z`)
          .join("\n\n") +
        "\n"
      );
    }
    if (a === "r2" && b === "bucket" && c === "create") {
      this.buckets.push(args[3]);
      return `Creating bucket '${args[3]}'...\n✅ Created bucket '${args[3]}' with default storage class of Standard.\n`;
    }
    if (a === "queues" && b === "list") {
      const header = recorded("queues-list.txt").split("┌")[0];
      const rows = this.queues.map((q, i) => ({
        id: `6a0f3b1c2d4e5f60718293a4b5c6d7e${i}`,
        name: q,
        created_on: "2026-11-20T03:15:10.004012Z",
        modified_on: "2026-11-20T03:15:10.004012Z",
        producers: "1",
        consumers: "1",
      }));
      return rows.length ? `${header}${table(rows)}\n` : `${header}${table([])}\n`;
    }
    if (a === "queues" && b === "create") {
      this.queues.push(c);
      return `🌀 Creating queue '${c}'\n✅ Created queue '${c}'\n`;
    }
    const workerName = configPath ? this.#config(configPath).name : undefined;
    const worker = workerName ? this.workers.get(workerName) : undefined;
    if (a === "secret" && b === "list") {
      if (!worker) {
        throw failure(recorded("secret-list-not-found.txt").replace("warga-api", workerName));
      }
      return JSON.stringify(
        worker.secrets.map((name) => ({ name, type: "secret_text" })),
        null,
        2,
      );
    }
    if (a === "deployments" && b === "status") {
      if (!worker) {
        throw failure(recorded("secret-list-not-found.txt").replace("warga-api", workerName));
      }
      if (!worker.deployed) {
        throw failure(recorded("deployments-status-none.txt").replace("warga-notify", workerName));
      }
      const status = JSON.parse(recorded("deployments-status.json"));
      status.versions[0].version_id = worker.deployed.id;
      return JSON.stringify(status, null, 2);
    }
    if (a === "versions" && b === "view") {
      const version = JSON.parse(recorded("versions-view.json"));
      version.id = c;
      version.annotations["workers/tag"] = worker?.deployed?.tag ?? undefined;
      return JSON.stringify(version, null, 2);
    }
    if (a === "deploy" && args.includes("--dry-run")) {
      const outdir = this.#option(args, "--outdir");
      // Stands in for esbuild's output: changes when the config does, like the real bundle's digest.
      writeFileSync(
        join(outdir, "index.js"),
        `// bundle of ${configPath}\n${this.bundleExtra[configPath] ?? ""}`,
      );
      return "Total Upload: 1.00 KiB / gzip: 0.50 KiB\n--dry-run: exiting now.\n";
    }
    if (a === "deploy") {
      const tag = this.#option(args, "--tag");
      this.workers.set(workerName, {
        secrets: worker?.secrets ?? [],
        deployed: { id: uuid(), tag },
      });
      return `Uploaded ${workerName}\nDeployed ${workerName} triggers\n`;
    }
    throw new Error(`fake wrangler: no recorded answer for \`wrangler ${line}\``);
  }
}
