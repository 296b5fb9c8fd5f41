// The deploy plan and apply against a fake wrangler (recorded output formats), on a copy of the
// project's real Worker configs and migrations: an empty account, a half-provisioned one, a fully
// provisioned one, and a second run that changes nothing.
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "smol-toml";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { deploy } from "../../scripts/deploy.mjs";
import {
  desiredResources,
  formatPlan,
  PLACEHOLDER_ID,
  parseBucketList,
  parsePendingMigrations,
  parseTable,
  planChanges,
  readConfigs,
  recordDatabaseId,
} from "../../scripts/lib/provision.mjs";
import { FakeWrangler } from "./fake-wrangler.mjs";

const ROOT = join(import.meta.dirname, "..", "..");
const recorded = (name) => readFileSync(join(import.meta.dirname, "recorded", name), "utf8");

let dir;
function freshCopy() {
  dir = mkdtempSync(join(tmpdir(), "warga-deploy-"));
  for (const path of [
    "wrangler.toml",
    "migrations",
    "workers/notify/wrangler.toml",
    "workers/notify/migrations",
    "workers/ticket-mail/wrangler.toml",
  ]) {
    cpSync(join(ROOT, path), join(dir, path), { recursive: true });
  }
}
beforeEach(freshCopy);
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const desired = () => desiredResources(readConfigs(dir));
const silent = () => {};
const API_SECRETS = [
  "JWT_SECRET",
  "PASSWORD_PEPPER",
  "ARCHIVE_SIGNING_KEY",
  "INTERNAL_API_KEY",
  "OIDC_GOOGLE_CLIENT_SECRET",
];
const NOTIFY_SECRETS = ["INTERNAL_API_KEY", "WHATSAPP_GATEWAY_TOKEN"];
const ALL_SECRETS = {
  "warga-notify": { secrets: NOTIFY_SECRETS },
  "warga-api": { secrets: API_SECRETS },
  "warga-ticket-mail": { secrets: ["INTERNAL_API_KEY"] },
};

function databaseIds() {
  return readConfigs(dir).flatMap(({ path, text }) =>
    (parse(text).d1_databases ?? []).map((db) => ({
      config: path,
      name: db.database_name,
      id: db.database_id,
    })),
  );
}

describe("recorded wrangler outputs", () => {
  it("parse into names", () => {
    expect(parseBucketList(recorded("r2-bucket-list.txt"))).toEqual(["warga-files", "warga-backups"]);
    expect(parseTable(recorded("queues-list.txt")).map((r) => r.name)).toEqual([
      "warga-notify",
      "warga-notify-dlq",
    ]);
    expect(parsePendingMigrations(recorded("d1-migrations-list-pending.txt"))).toEqual([
      "0007_surat_templates.sql",
      "0008_musyawarah.sql",
    ]);
    expect(parsePendingMigrations(recorded("d1-migrations-list-none.txt"))).toEqual([]);
  });

  it("the config asks for every database, bucket, queue and Worker", () => {
    const d = desired();
    const names = d.databases.map((db) => db.name);
    expect(names).toContain("warga-platform");
    expect(names).toContain("warga-notify");
    expect(names.filter((n) => n.startsWith("warga-tenant-")).length).toBeGreaterThanOrEqual(8);
    expect(d.buckets).toEqual(["warga-files"]);
    expect(d.queues.sort()).toEqual(["warga-notify", "warga-notify-dlq"]);
    expect(d.workers.map((w) => w.name)).toEqual(["warga-notify", "warga-api", "warga-ticket-mail"]);
    expect(d.workers[1].secrets.required).toEqual(expect.arrayContaining(API_SECRETS));
    expect(d.workers[1].durableObjectMigrations).toEqual(["v1", "v2", "v3"]);
  });

  it("records an id in its binding's block only", () => {
    const text = readFileSync(join(dir, "wrangler.toml"), "utf8");
    const id = "11111111-2222-4333-8444-555555555555";
    const updated = parse(recordDatabaseId(text, "TENANT_DB_02", id));
    const byBinding = Object.fromEntries(updated.d1_databases.map((db) => [db.binding, db.database_id]));
    expect(byBinding.TENANT_DB_02).toBe(id);
    expect(byBinding.TENANT_DB_01).toBe("00000000-0000-0000-0000-000000000001");
    expect(byBinding.TENANT_DB_03).toBe("00000000-0000-0000-0000-000000000003");
  });
});

describe("empty account", () => {
  it("--plan lists everything to create and every secret to set, and changes nothing", async () => {
    const fake = new FakeWrangler(dir);
    const lines = [];
    const p = await deploy(["--plan"], fake.run, dir, (l) => lines.push(l));
    const text = lines.join("\n");
    expect(p.databases.every((db) => db.action === "create")).toBe(true);
    expect(p.buckets).toEqual([{ name: "warga-files", action: "create" }]);
    expect(p.queues.map((q) => q.action)).toEqual(["create", "create"]);
    expect(p.workers.every((w) => w.action === "deploy" && !w.exists)).toBe(true);
    expect(text).toContain("+ create   warga-platform");
    expect(text).toContain("Durable Object migrations v1, v2, v3 (all applied by the first deploy)");
    expect(text).toContain(
      "! missing  warga-api JWT_SECRET: npx wrangler secret put JWT_SECRET -c wrangler.toml",
    );
    expect(text).toContain(
      "! missing  warga-notify WHATSAPP_GATEWAY_TOKEN: npx wrangler secret put WHATSAPP_GATEWAY_TOKEN -c workers/notify/wrangler.toml",
    );
    expect(fake.mutations()).toEqual([]);
    expect(readConfigs(dir).map((c) => c.text)).toEqual(readConfigs(ROOT).map((c) => c.text));
  });

  it("missing secrets stop the deploy before anything is created, naming each command", async () => {
    const fake = new FakeWrangler(dir);
    await expect(deploy([], fake.run, dir, silent)).rejects.toThrow(
      /missing secrets, nothing was changed:[\s\S]*warga-api PASSWORD_PEPPER: npx wrangler secret put PASSWORD_PEPPER -c wrangler.toml/,
    );
    expect(fake.mutations()).toEqual([]);
  });

  it("with secrets set, creates everything, records ids, migrates, deploys in order; a second run changes nothing", async () => {
    const fake = new FakeWrangler(dir, { workers: ALL_SECRETS });
    await deploy([], fake.run, dir, silent);
    const ids = databaseIds();
    expect(ids.every((db) => !PLACEHOLDER_ID.test(db.id))).toBe(true);
    for (const db of ids) {
      expect(fake.databases.find((d) => d.name === db.name)?.uuid).toBe(db.id);
    }
    expect(fake.buckets).toEqual(["warga-files"]);
    expect(fake.queues.sort()).toEqual(["warga-notify", "warga-notify-dlq"]);
    const migrated = fake.calls
      .filter((c) => c.startsWith("d1 migrations apply"))
      .map((c) => c.split(" ")[3]);
    expect(migrated.sort()).toEqual(ids.map((db) => db.name).sort());
    const deploys = fake.mutations().filter((c) => c.startsWith("deploy -c"));
    expect(deploys.map((c) => c.split(" ")[2])).toEqual([
      "workers/notify/wrangler.toml",
      "wrangler.toml",
      "workers/ticket-mail/wrangler.toml",
    ]);
    expect(deploys.every((c) => /--tag [0-9a-f]{16}/.test(c))).toBe(true);

    const before = fake.mutations().length;
    const configs = readConfigs(dir).map((c) => c.text);
    const lines = [];
    const again = await deploy([], fake.run, dir, (l) => lines.push(l));
    expect(planChanges(again)).toBe(false);
    expect(fake.mutations().length).toBe(before);
    expect(readConfigs(dir).map((c) => c.text)).toEqual(configs);
    expect(formatPlan(again)).toContain("Nothing to change.");
  });
});

describe("half-provisioned account", () => {
  it("records existing ids, creates only what is missing, migrates only pending databases, redeploys only changed Workers", async () => {
    const first = new FakeWrangler(dir, { workers: ALL_SECRETS });
    await deploy([], first.run, dir, silent);
    const deployedNotifyTag = first.workers.get("warga-notify").deployed.tag;
    const notifyId = first.databases.find((d) => d.name === "warga-notify").uuid;
    // A fresh copy of the configs (placeholders again) against an account that has part of it: the
    // notify Worker deployed from the same database id, so its bundle is unchanged once it is recorded.
    rmSync(dir, { recursive: true, force: true });
    freshCopy();
    const fake = new FakeWrangler(dir, {
      databases: [
        { name: "warga-platform", applied: "all" },
        { name: "warga-notify", uuid: notifyId, applied: "all" },
        { name: "warga-tenant-01", applied: "all" },
        { name: "warga-tenant-02", applied: 1 },
      ],
      buckets: ["warga-files"],
      queues: ["warga-notify"],
      workers: {
        "warga-notify": { secrets: NOTIFY_SECRETS, tag: deployedNotifyTag },
        "warga-api": { secrets: API_SECRETS.slice(0, -1) },
        "warga-ticket-mail": { secrets: ["INTERNAL_API_KEY"], tag: "0123456789abcdef" },
      },
    });
    const existingIds = Object.fromEntries(fake.databases.map((d) => [d.name, d.uuid]));
    const lines = [];
    const p = await deploy(["--plan"], fake.run, dir, (l) => lines.push(l));
    const action = Object.fromEntries(p.databases.map((db) => [db.name, db.action]));
    expect(action["warga-platform"]).toBe("record");
    expect(action["warga-tenant-02"]).toBe("record");
    expect(action["warga-tenant-03"]).toBe("create");
    expect(p.queues).toEqual(expect.arrayContaining([{ name: "warga-notify-dlq", action: "create" }]));
    expect(p.buckets).toEqual([{ name: "warga-files", action: "ok" }]);
    expect(p.migrations.find((m) => m.name === "warga-tenant-02")?.pending?.length).toBeGreaterThan(0);
    expect(p.migrations.find((m) => m.name === "warga-tenant-01")).toBeUndefined();
    expect(p.secrets.filter((s) => s.required).map((s) => s.name)).toEqual(["OIDC_GOOGLE_CLIENT_SECRET"]);
    expect(lines.join("\n")).toContain("~ record   warga-platform");
    expect(fake.mutations()).toEqual([]);

    fake.workers.get("warga-api").secrets.push("OIDC_GOOGLE_CLIENT_SECRET");
    await deploy([], fake.run, dir, silent);
    const creates = fake.mutations().filter((c) => c.startsWith("d1 create"));
    expect(creates.some((c) => c.startsWith("d1 create warga-platform "))).toBe(false);
    // New primaries in Asia-Pacific, nearest the residents (ADR 0036), whoever runs the deploy.
    expect(creates).toContain("d1 create warga-tenant-03 --location apac");
    expect(fake.mutations()).toContain("queues create warga-notify-dlq");
    expect(fake.mutations()).not.toContain("r2 bucket create warga-files");
    const migrated = fake.calls
      .filter((c) => c.startsWith("d1 migrations apply"))
      .map((c) => c.split(" ")[3]);
    expect(migrated).toContain("warga-tenant-02");
    expect(migrated).not.toContain("warga-tenant-01");
    const ids = Object.fromEntries(databaseIds().map((db) => [db.name, db.id]));
    expect(ids["warga-platform"]).toBe(existingIds["warga-platform"]);
    expect(ids["warga-notify"]).toBe(existingIds["warga-notify"]);
    // notify's deployed tag already matches its bundle; the others changed.
    const deployed = fake.mutations().filter((c) => c.startsWith("deploy -c"));
    expect(deployed.map((c) => c.split(" ")[2])).toEqual([
      "wrangler.toml",
      "workers/ticket-mail/wrangler.toml",
    ]);
  });

  it("a config id that differs from the account's stops the deploy", async () => {
    const text = readFileSync(join(dir, "wrangler.toml"), "utf8");
    const other = "99999999-8888-4777-8666-555555555555";
    const { writeFileSync } = await import("node:fs");
    writeFileSync(join(dir, "wrangler.toml"), recordDatabaseId(text, "PLATFORM_DB", other));
    const fake = new FakeWrangler(dir, { databases: [{ name: "warga-platform" }], workers: ALL_SECRETS });
    await expect(deploy([], fake.run, dir, silent)).rejects.toThrow(/config ids differ from the account's/);
    expect(fake.mutations()).toEqual([]);
  });
});

describe("offline checks", () => {
  it("--check fails a Worker whose gzip bundle is over budget", async () => {
    const fake = new FakeWrangler(dir);
    await expect(deploy(["--check"], fake.run, dir, silent)).resolves.toBeNull();
    // Incompressible bytes over 1 MiB.
    const { randomBytes } = await import("node:crypto");
    fake.bundleExtra["wrangler.toml"] = randomBytes(1536 * 1024).toString("base64");
    await expect(deploy(["--check"], fake.run, dir, silent)).rejects.toThrow(
      /over the 1024.0 KiB gzip budget: wrangler.toml/,
    );
    expect(fake.mutations()).toEqual([]);
  });
});
