import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/core/env";
import type { Manifest } from "../../../src/modules/platform-ops/export";
import { SIGNATURE_PATH, signManifest } from "../../../src/modules/platform-ops/signature";
import { tenantD1 } from "../../helpers/d1";
import {
  bindings,
  call,
  callJson,
  createTenant,
  ENGLISH,
  expectProblem,
  operatorToken,
  type TestTenant,
} from "../../helpers/harness";
import { CLEAN_PNG } from "../galeri-pasar/images";
import { importZip, requestAndSettle } from "./helpers";

/**
 * Issue 31, N7: archives are signed by the platform and the signature is checked on import; an import
 * refuses file rows whose storage keys lie outside the archive's tenant; and the file route serves a
 * row's object only when its key lies under the caller's tenant prefix.
 */
function photo() {
  const form = new FormData();
  form.set("file", new File([CLEAN_PNG], "foto.png", { type: "image/png" }));
  form.set("purpose", "pasar");
  return form;
}

async function uploadedKey(tenant: TestTenant): Promise<{ id: string; key: string }> {
  const warga = await tenant.member("warga");
  const up = await callJson<{ id: string }>("/api/files", { token: warga.token, body: photo() });
  expect(up.status).toBe(201);
  const row = await tenantD1(tenant)
    .prepare("SELECT id, r2_key FROM files WHERE id = ?")
    .bind(up.body.id)
    .first<{ id: string; r2_key: string }>();
  return { id: up.body.id, key: row?.r2_key ?? "" };
}

async function exported(tenant: TestTenant): Promise<Record<string, Uint8Array>> {
  const admin = await tenant.member("admin");
  const started = await requestAndSettle("/api/archives", admin.token);
  expect(started.status).toBe(202);
  const res = await call(`/api/platform/archives/${started.body.archive.id}/download`, {
    token: await operatorToken(),
  });
  expect(res.status).toBe(200);
  return unzipSync(new Uint8Array(await res.arrayBuffer()));
}

const sha256 = async (bytes: Uint8Array) =>
  [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");

/** The archive with its files rows pointing at `key`, the manifest updated to match. */
async function pointFilesAt(entries: Record<string, Uint8Array>, key: string, sign: boolean) {
  const path = "tables/files.json";
  const table = JSON.parse(strFromU8(entries[path] as Uint8Array)) as {
    columns: string[];
    rows: unknown[][];
  };
  const at = table.columns.indexOf("r2_key");
  expect(at).toBeGreaterThanOrEqual(0);
  expect(table.rows.length).toBeGreaterThan(0);
  for (const row of table.rows) {
    row[at] = key;
  }
  const bytes = strToU8(JSON.stringify(table));
  const manifest = JSON.parse(strFromU8(entries["manifest.json"] as Uint8Array)) as Manifest;
  for (const entry of manifest.entries) {
    if (entry.path === path) {
      entry.bytes = bytes.byteLength;
      entry.sha256 = await sha256(bytes);
    }
  }
  const manifestBytes = strToU8(JSON.stringify(manifest));
  const out: Record<string, Uint8Array> = { ...entries, [path]: bytes, "manifest.json": manifestBytes };
  if (sign) {
    out[SIGNATURE_PATH] = strToU8(await signManifest(loadConfig(bindings), manifestBytes));
  }
  return zipSync(out);
}

describe("tenant archives and other tenants' storage keys", () => {
  it("signs every export, imports a genuine one, and refuses a changed or unsigned manifest", async () => {
    const source = await createTenant();
    await uploadedKey(source);
    const entries = await exported(source);
    expect(strFromU8(entries[SIGNATURE_PATH] as Uint8Array)).toMatch(/^[0-9a-f]{64}$/);
    const victim = await uploadedKey(await createTenant());

    const target = await createTenant();
    expectProblem(
      await importZip(target, await pointFilesAt(entries, victim.key, false)),
      422,
      "archive_signature_invalid",
    );
    const unsigned = { ...entries };
    delete unsigned[SIGNATURE_PATH];
    expectProblem(await importZip(target, zipSync(unsigned)), 422, "archive_signature_invalid");
    // The English detail names the offending column (the default, Indonesian, says the code's sentence).
    const foreignKey = await importZip(target, await pointFilesAt(entries, victim.key, true), ENGLISH);
    expectProblem(foreignKey, 422, "archive_invalid");
    expect(JSON.stringify(foreignKey.body)).toContain("r2_key");
    const none = await tenantD1(target).prepare("SELECT COUNT(*) AS n FROM files").first<{ n: number }>();
    expect(none?.n).toBe(0);

    const res = await importZip(target, zipSync(entries));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it("serves a file only when its row's key lies under the caller's tenant", async () => {
    const victim = await uploadedKey(await createTenant());
    const tenant = await createTenant();
    const own = await uploadedKey(tenant);
    const admin = await tenant.member("admin");
    expect((await call(`/api/files/${own.id}`, { token: admin.token })).status).toBe(200);
    // A row (however it got there) naming another community's object.
    await tenantD1(tenant).prepare("UPDATE files SET r2_key = ? WHERE id = ?").bind(victim.key, own.id).run();
    expectProblem(await callJson(`/api/files/${own.id}`, { token: admin.token }), 404, "file_not_found");
  });
});
