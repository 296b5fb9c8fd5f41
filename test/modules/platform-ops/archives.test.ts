import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../../src/core/env";
import { Unavailable } from "../../../src/core/errors";
import { Printer } from "../../../src/modules/platform-ops/handover";
import { SIGNATURE_PATH, signManifest } from "../../../src/modules/platform-ops/signature";
import { pdfRendering } from "../../../src/platform/pdf";
import { readWorkbook } from "../../../src/platform/spreadsheets";
import { tenantD1 } from "../../helpers/d1";
import {
  bindings,
  call,
  callJson,
  createTenant,
  expectProblem,
  type Member,
  operatorToken,
  type TestTenant,
} from "../../helpers/harness";
import { CLEAN_JPEG, CLEAN_PNG } from "../galeri-pasar/images";
import { finishedLetter, household } from "../surat/helpers";
import { importZip, requestAndSettle, runArchiveJob } from "./helpers";

interface Archive {
  id: string;
  status: string;
  kind: string;
  bytes: number | null;
  sha256: string | null;
  summary: { tables: number; rows: number; files: number } | null;
  expiresAt: string | null;
  downloadUrl: string | null;
}

interface Manifest {
  format: string;
  formatVersion: number;
  tenant: { id: string; slug: string };
  schemaVersion: string;
  createdAt: string;
  tables: Record<string, number>;
  entries: { kind: string; path: string; bytes: number; sha256: string; table?: string; rows?: number }[];
}

function photoForm(purpose?: string, bytes: Uint8Array = CLEAN_PNG, name = "foto.png", type = "image/png") {
  const form = new FormData();
  form.set("file", new File([bytes], name, { type }));
  if (purpose) {
    form.set("purpose", purpose);
  }
  return form;
}

async function ok<T>(res: Promise<{ status: number; body: T }>, status = 201): Promise<T> {
  const answer = await res;
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return answer.body;
}

/** A community with rows in several modules and files under both of its R2 prefixes. */
async function seededCommunity() {
  const tenant = await createTenant();
  const [admin, sek, bendahara, warga] = await Promise.all([
    tenant.member("admin"),
    tenant.member("sekretaris"),
    tenant.member("bendahara"),
    tenant.member("warga"),
  ]);
  for (const [block, number] of [
    ["A", "1"],
    ["A", "2"],
    ["B", "7"],
  ]) {
    await ok(callJson("/api/kependudukan/units", { token: sek.token, body: { block, number } }));
  }
  const album = await ok(
    callJson<{ id: string }>("/api/galeri", {
      token: sek.token,
      body: { title: "Kerja bakti Agustus", eventDate: "2026-08-16" },
    }),
  );
  await ok(callJson(`/api/galeri/${album.id}/foto`, { token: sek.token, body: photoForm() }));
  await ok(
    callJson(`/api/galeri/${album.id}/foto`, {
      token: sek.token,
      body: photoForm(undefined, CLEAN_JPEG, "foto.jpg", "image/jpeg"),
    }),
  );
  await ok(callJson("/api/files", { token: warga.token, body: photoForm("pasar") }));
  await ok(
    callJson("/api/kas", {
      token: bendahara.token,
      body: {
        kind: "masuk",
        category: "Saldo awal",
        amount: 2_500_000,
        date: "2026-01-02",
        note: "Saldo kas RT",
      },
    }),
  );
  await ok(
    callJson("/api/kas", {
      token: bendahara.token,
      body: {
        kind: "keluar",
        category: "Kebersihan",
        amount: 150_000,
        date: "2026-01-05",
        note: "Beli sapu",
      },
    }),
  );
  // A cached letter PDF (slug prefix) and a support-ticket image (id prefix), as those modules store them.
  const pdf = strToU8("%PDF-1.7\nSurat Keterangan Domisili\n%%EOF");
  await bindings.FILES.put(`tenants/${tenant.slug}/surat/01LETTER000000000000000000/v1.pdf`, pdf, {
    httpMetadata: { contentType: "application/pdf" },
  });
  await bindings.FILES.put(`tenants/${tenant.id}/support/01SUPPORT00000000000000000.png`, CLEAN_PNG, {
    httpMetadata: { contentType: "image/png" },
  });
  return { tenant, admin, sek, warga };
}

async function exportOf(admin: Member): Promise<Archive> {
  const started = await requestAndSettle("/api/archives", admin.token);
  expect(started.status).toBe(202);
  const status = await callJson<Archive>(`/api/archives/${started.body.archive.id}`, { token: admin.token });
  expect(status.body.status, JSON.stringify(status.body)).toBe("ready");
  return status.body;
}

async function downloadZip(path: string, token: string): Promise<Uint8Array> {
  const res = await call(path, { token });
  expect(res.status).toBe(200);
  expect(res.headers.get("Content-Type")).toBe("application/zip");
  return new Uint8Array(await res.arrayBuffer());
}

async function tableNames(db: D1Database): Promise<string[]> {
  const { results } = await db
    .prepare(
      // The slot's owner row (core/tenancy/owner.ts) is the slot's bookkeeping, never archived.
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT IN ('d1_migrations', 'slot_owner') ORDER BY name",
    )
    .all<{ name: string }>();
  return results.map((r) => r.name);
}

async function rowsOf(db: D1Database, table: string): Promise<unknown[][]> {
  return db.prepare(`SELECT * FROM "${table}" ORDER BY rowid`).raw();
}

async function objectsUnder(prefix: string): Promise<Map<string, Uint8Array>> {
  const listed = await bindings.FILES.list({ prefix });
  const out = new Map<string, Uint8Array>();
  for (const object of listed.objects) {
    const body = await bindings.FILES.get(object.key);
    out.set(object.key.slice(prefix.length), new Uint8Array(await (body as R2ObjectBody).arrayBuffer()));
  }
  return out;
}

async function expectEmpty(target: TestTenant) {
  const db = tenantD1(target);
  for (const table of await tableNames(db)) {
    expect(await rowsOf(db, table), table).toEqual([]);
  }
  expect((await objectsUnder(`tenants/${target.id}/`)).size).toBe(0);
  expect((await objectsUnder(`tenants/${target.slug}/`)).size).toBe(0);
}

/** What the archive printed (the handover pack's PDFs): a fake renderer, no browser launched. */
let printed: string[] = [];
beforeEach(() => {
  printed = [];
  vi.spyOn(pdfRendering, "create").mockImplementation(() => ({
    async render(html: string) {
      printed.push(html);
      return strToU8(`%PDF-1.7\n${printed.length}\n%%EOF`);
    },
  }));
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("tenant archive: export and import", () => {
  it("carries a handover pack: an index naming files that are there, the registry as a workbook with NIK as text, the reports and letters as PDFs, and nothing of another community", async () => {
    const h = await household(await createTenant());
    const bendahara = await h.tenant.member("bendahara");
    await ok(
      callJson("/api/kas", {
        token: bendahara.token,
        body: { kind: "masuk", category: "Iuran", amount: 750_000, date: "2026-03-04", note: "Iuran Maret" },
      }),
    );
    await finishedLetter(h, "007/RT01/III/2026", "2026-03-10");
    // A letter whose PDF its download already stored: the pack copies that file, it does not print again.
    const kept = await finishedLetter(h, "008/RT01/III/2026", "2026-03-11");
    const keptPdf = strToU8("%PDF-1.7\nkept copy of 008\n%%EOF");
    await bindings.FILES.put(`tenants/${h.tenant.slug}/surat/${kept.id}/v${kept.pdfVersion}.pdf`, keptPdf);
    // Another community with a household of its own: none of it may reach this pack.
    const other = await household(await createTenant());
    const otherKk = await callJson<{ kkNumber: string }>(`/api/kependudukan/kk/${other.kkId}`, {
      token: other.sek.token,
    });
    const before = await objectsUnder(`tenants/${h.tenant.slug}/`);

    const archive = await exportOf(h.admin);
    const entries = unzipSync(await downloadZip(`/api/archives/${archive.id}/download`, h.admin.token));
    const manifest = JSON.parse(strFromU8(entries["manifest.json"] as Uint8Array)) as Manifest;
    const pack = manifest.entries.filter((e) => e.kind === "handover").map((e) => e.path);
    expect(pack).toEqual(
      expect.arrayContaining([
        "index.html",
        "serah-terima/data-warga.xlsx",
        "serah-terima/iuran.xlsx",
        "serah-terima/buku-kas.xlsx",
        "serah-terima/buku-kas-2026.pdf",
        "serah-terima/laporan-bulanan/laporan-keuangan-2026-03.xlsx",
        "serah-terima/laporan-bulanan/laporan-keuangan-2026-03.pdf",
      ]),
    );
    // The index names the community, the archive's day, and every file of the pack, each one there.
    const index = strFromU8(entries["index.html"] as Uint8Array);
    expect(index).toContain("RT Uji");
    expect(index).toMatch(/Tanggal arsip: \d{1,2} \w+ \d{4}/);
    const linked = [...index.matchAll(/href="([^"]+)"/g)].map((m) => decodeURI(m[1] as string));
    expect(linked.sort()).toEqual(pack.filter((p) => p !== "index.html").sort());
    for (const path of linked) {
      expect(entries[path], path).toBeDefined();
    }
    // The registry opens with the project's own reader; the family is there and a NIK is a text cell.
    const registryBytes = entries["serah-terima/data-warga.xlsx"] as Uint8Array;
    const kk = readWorkbook(registryBytes).find((sheet) => sheet.name === "KK");
    const family = kk?.rows.find((row) => row[3] === "Budi Santoso");
    expect(family?.[4]).toMatch(/^\d{16}$/);
    const kkXml = strFromU8(unzipSync(registryBytes)["xl/worksheets/sheet1.xml"] as Uint8Array);
    expect(kkXml).toContain(`t="inlineStr"><is><t>${family?.[4]}</t>`);
    expect(JSON.stringify(kk?.rows)).not.toContain(otherKk.body.kkNumber);
    const cash = readWorkbook(entries["serah-terima/buku-kas.xlsx"] as Uint8Array)[0];
    expect(cash?.rows[1]).toEqual(["2026-03-04", "Masuk", "Iuran", "Iuran Maret", "750000", null, "manual"]);
    const report = readWorkbook(
      entries["serah-terima/laporan-bulanan/laporan-keuangan-2026-03.xlsx"] as Uint8Array,
    )[0];
    expect(report?.rows).toContainEqual(["Saldo akhir", "750000"]);
    expect(readWorkbook(entries["serah-terima/iuran.xlsx"] as Uint8Array).map((s) => s.name)).toEqual([
      "Tagihan",
      "Pembayaran",
    ]);
    // The PDFs: the cash book, the month's report and the letter, printed as their downloads print them.
    const letter = pack.find((p) => p.startsWith("serah-terima/surat/007-RT01-III-2026"));
    expect(index).toContain("No. 007/RT01/III/2026 untuk Budi Santoso, 10 Maret 2026");
    for (const path of [letter, "serah-terima/buku-kas-2026.pdf"]) {
      expect(strFromU8((entries[path as string] as Uint8Array).slice(0, 5)), path).toBe("%PDF-");
    }
    expect(printed.some((html) => html.includes("007/RT01/III/2026"))).toBe(true);
    expect(printed.some((html) => html.includes("008/RT01/III/2026"))).toBe(false);
    const keptPath = pack.find((p) => p.startsWith("serah-terima/surat/008-RT01-III-2026"));
    expect(entries[keptPath as string]).toEqual(keptPdf);
    expect(printed.some((html) => html.includes("Iuran Maret") && html.includes("Rp750.000"))).toBe(true);
    // Read only: printing stored nothing under the community's prefixes.
    expect(await objectsUnder(`tenants/${h.tenant.slug}/`)).toEqual(before);

    expectProblem(
      await callJson(`/api/archives/${archive.id}/download`, { token: other.admin.token }),
      404,
      "archive_not_found",
    );
  });

  it("prints at most its budget of PDFs, and asks a renderer that is not there only once", async () => {
    const printer = new Printer(bindings as never, 2);
    expect(await printer.render("<p>1</p>")).not.toBeNull();
    expect(await printer.render("<p>2</p>")).not.toBeNull();
    expect(await printer.render("<p>3</p>")).toBeNull();
    expect([printed.length, printer.skipped, printer.unavailable]).toEqual([2, 1, null]);
    const create = vi.spyOn(pdfRendering, "create").mockImplementation(() => ({
      render: () => Promise.reject(new Unavailable("pdf_renderer_unavailable", "no browser")),
    }));
    create.mockClear();
    const absent = new Printer(bindings as never);
    expect(await absent.render("<p>1</p>")).toBeNull();
    expect(await absent.render("<p>2</p>")).toBeNull();
    expect(create).toHaveBeenCalledTimes(1);
    expect(absent.unavailable).toMatch(/tidak tersedia/);
  });

  it("round trip: an admin's export imported into a fresh tenant gives every row and every file back", async () => {
    const { tenant, admin } = await seededCommunity();
    // A kept answer of a request (once, a new gate device's key): request bookkeeping, never archived.
    await tenantD1(tenant)
      .prepare(
        "INSERT INTO idempotency_keys (scope, key, actor_id, request_hash, state, owner, locked_until, created_at, status, body) " +
          "VALUES (?1, 'arsip-1', ?2, 'h', 'done', 'o', ?3, ?3, 201, '{\"apiKey\":\"gk_rahasia\"}')",
      )
      .bind(`user:${admin.id}@${tenant.slug}`, admin.id, new Date().toISOString())
      .run();
    // No PDF renderer here: the pack leaves its PDFs out and its index says why; the archive is made.
    vi.spyOn(pdfRendering, "create").mockImplementation(() => ({
      render: () => Promise.reject(new Unavailable("pdf_renderer_unavailable", "no browser")),
    }));
    const archive = await exportOf(admin);
    expect(archive.downloadUrl).toMatch(new RegExp(`/api/archives/${archive.id}/download$`));
    expect(archive.summary?.files).toBe(5);

    const zip = await downloadZip(`/api/archives/${archive.id}/download`, admin.token);
    expect(zip.byteLength).toBe(archive.bytes);
    const digest = await crypto.subtle.digest("SHA-256", zip);
    expect([...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("")).toBe(
      archive.sha256,
    );
    const entries = unzipSync(zip);
    const manifest = JSON.parse(strFromU8(entries["manifest.json"] as Uint8Array)) as Manifest;
    expect(manifest).toMatchObject({
      format: "warga-tenant-archive",
      formatVersion: 1,
      tenant: { id: tenant.id, slug: tenant.slug },
    });
    expect(manifest.schemaVersion).toMatch(/^\d{4}_/);
    const source = tenantD1(tenant);
    // Every table of the tenant database, found generically, is in the archive with its row count, but
    // the tallies the database's triggers keep: the import rebuilds them from the rows they count; and
    // the idempotency keys, whose kept answers may carry credentials (issue 44, P4).
    const notCarried = ["registry_birth_months", "registry_counts", "units_block_counts", "idempotency_keys"];
    expect(Object.keys(manifest.tables).sort()).toEqual(
      (await tableNames(source)).filter((t) => !notCarried.includes(t)),
    );
    expect(Object.keys(entries).filter((path) => path.includes("idempotency"))).toEqual([]);
    expect(
      Object.keys(entries).filter((path) => path.startsWith("serah-terima/") && path.endsWith(".pdf")),
    ).toEqual([]);
    expect(strFromU8(entries["index.html"] as Uint8Array)).toContain(
      "Sebab PDF tidak disertakan: layanan cetak PDF tidak tersedia saat arsip dibuat.",
    );
    expect(manifest.tables.units).toBe(3);
    for (const entry of manifest.entries) {
      const bytes = entries[entry.path] as Uint8Array;
      expect(bytes.byteLength, entry.path).toBe(entry.bytes);
      const hash = await crypto.subtle.digest("SHA-256", bytes);
      expect([...new Uint8Array(hash)].map((b) => b.toString(16).padStart(2, "0")).join("")).toBe(
        entry.sha256,
      );
    }

    const target = await createTenant();
    const imported = await callJson<{ report: { rows: number; files: number; skippedFiles: number } }>(
      `/api/platform/tenants/${target.id}/imports?archiveId=${archive.id}`,
      { method: "POST", token: await operatorToken() },
    );
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body.report).toMatchObject({ files: 4, skippedFiles: 1 });

    const copy = tenantD1(target);
    const moveKey = (value: unknown) =>
      typeof value === "string"
        ? value
            .replace(`tenants/${tenant.id}/`, `tenants/${target.id}/`)
            .replace(`tenants/${tenant.slug}/`, `tenants/${target.slug}/`)
        : value;
    for (const table of await tableNames(source)) {
      const want = (await rowsOf(source, table)).map((row) => row.map(moveKey));
      let got = await rowsOf(copy, table);
      if (table === "idempotency_keys") {
        expect(want).toHaveLength(1);
        expect(got, table).toEqual([]);
        continue;
      }
      if (table === "audit_log") {
        // The import writes its own record into the restored log; everything else is the source's.
        expect(got.filter((r) => r.includes("tenant.archive_imported"))).toHaveLength(1);
        got = got.filter((r) => !r.includes("tenant.archive_imported"));
      }
      expect(got, table).toEqual(want);
    }
    expect(await rowsOf(copy, "files")).toHaveLength(3);
    // Files byte for byte under the new tenant's prefixes; support images stay platform records.
    const byId = await objectsUnder(`tenants/${tenant.id}/`);
    byId.delete("support/01SUPPORT00000000000000000.png");
    expect(await objectsUnder(`tenants/${target.id}/`)).toEqual(byId);
    expect(await objectsUnder(`tenants/${target.slug}/`)).toEqual(
      await objectsUnder(`tenants/${tenant.slug}/`),
    );
    // The restored file store serves the restored rows.
    const [file] = await rowsOf(copy, "files");
    const targetAdmin = await target.member("admin");
    const served = await call(`/api/files/${file?.[0]}`, { token: targetAdmin.token });
    expect(served.status).toBe(200);

    // A second import into the now filled tenant is refused, and the import shows in its list.
    expectProblem(
      await callJson(`/api/platform/tenants/${target.id}/imports?archiveId=${archive.id}`, {
        method: "POST",
        token: await operatorToken(),
      }),
      409,
      "tenant_not_empty",
    );
    const history = await callJson<{ items: Archive[] }>("/api/archives", { token: targetAdmin.token });
    expect(history.body.items.map((a) => [a.kind, a.status])).toEqual([["import", "ready"]]);
  });

  it("an uploaded archive with one changed byte, or of another schema, is 422 and nothing is written", async () => {
    const { admin } = await seededCommunity();
    const archive = await exportOf(admin);
    const entries = unzipSync(
      await downloadZip(`/api/platform/archives/${archive.id}/download`, await operatorToken()),
    );
    const target = await createTenant();

    const tampered = { ...entries };
    const units = strFromU8(tampered["tables/units.json"] as Uint8Array);
    tampered["tables/units.json"] = strToU8(units.replace('"B"', '"C"'));
    expectProblem(await importZip(target, zipSync(tampered)), 422, "archive_checksum_mismatch");
    await expectEmpty(target);

    const manifest = JSON.parse(strFromU8(entries["manifest.json"] as Uint8Array)) as Manifest;
    // Made by this platform at an older schema: signed (issue 31, N7), so the schema check is what refuses it.
    const olderManifest = strToU8(JSON.stringify({ ...manifest, schemaVersion: "0001_old" }));
    const older = {
      ...entries,
      "manifest.json": olderManifest,
      [SIGNATURE_PATH]: strToU8(await signManifest(loadConfig(bindings), olderManifest)),
    };
    expectProblem(await importZip(target, zipSync(older)), 422, "archive_schema_mismatch");
    const noManifest = { ...entries };
    delete noManifest["manifest.json"];
    expectProblem(await importZip(target, zipSync(noManifest)), 422, "archive_invalid");
    expectProblem(await importZip(target, strToU8("not a zip at all, just text")), 422, "archive_invalid");
    await expectEmpty(target);

    // The untouched upload goes in.
    const res = await importZip(target, zipSync(entries));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await rowsOf(tenantD1(target), "units")).toHaveLength(3);
  });

  it("refuses a target with data (409), the wrong role (403), an eleventh export in a day (429) and another tenant's archive id (404)", async () => {
    const tenant = await createTenant();
    const [admin, sek] = await Promise.all([tenant.member("admin"), tenant.member("sekretaris")]);
    await ok(callJson("/api/kependudukan/units", { token: sek.token, body: { block: "D", number: "4" } }));
    const archive = await exportOf(admin);

    const busy = await createTenant();
    const busySek = await busy.member("sekretaris");
    await ok(
      callJson("/api/kependudukan/units", { token: busySek.token, body: { block: "C", number: "3" } }),
    );
    expectProblem(
      await callJson(`/api/platform/tenants/${busy.id}/imports?archiveId=${archive.id}`, {
        method: "POST",
        token: await operatorToken(),
      }),
      409,
      "tenant_not_empty",
    );

    expectProblem(
      await callJson("/api/archives", { method: "POST", token: sek.token }),
      403,
      "forbidden_role",
    );
    expectProblem(
      await callJson(`/api/platform/tenants/${busy.id}/imports?archiveId=${archive.id}`, {
        method: "POST",
        token: admin.token,
      }),
      403,
      "forbidden_role",
    );

    // Ten requests a day per community; the eleventh (the first was the export above) is refused.
    for (let i = 0; i < 9; i++) {
      expect((await callJson("/api/archives", { method: "POST", token: admin.token })).status).toBe(202);
    }
    expectProblem(
      await callJson("/api/archives", { method: "POST", token: admin.token }),
      429,
      "rate_limited",
    );

    const otherAdmin = await busy.member("admin");
    expectProblem(
      await callJson(`/api/archives/${archive.id}`, { token: otherAdmin.token }),
      404,
      "archive_not_found",
    );
    expectProblem(
      await callJson(`/api/archives/${archive.id}/download`, { token: otherAdmin.token }),
      404,
      "archive_not_found",
    );
  });

  it("a second request while one is under way answers the first; a died export is finished by the hourly job", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const operator = await operatorToken();
    // The operator's request is answered at once; its background run is not awaited here.
    const first = await callJson<{ archive: Archive; created: boolean }>(
      `/api/platform/tenants/${tenant.id}/archives`,
      { method: "POST", token: operator },
    );
    expect(first.status).toBe(202);
    const id = first.body.archive.id;
    // As if the isolate died mid-run: the row is running with its lease run out.
    await bindings.PLATFORM_DB.prepare(
      "UPDATE tenant_archives SET status = 'running', attempts = 1, lease_until = '2000-01-01T00:00:00.000Z' WHERE id = ?",
    )
      .bind(id)
      .run();
    const again = await callJson<{ archive: Archive; created: boolean }>("/api/archives", {
      method: "POST",
      token: admin.token,
    });
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ created: false, archive: { id } });
    expectProblem(
      await callJson(`/api/archives/${id}/download`, { token: admin.token }),
      409,
      "archive_not_ready",
    );

    const at = new Date(Date.now() + 60_000);
    const report = await runArchiveJob(at);
    expect((report["platform-ops.archives"] as { built: number }).built).toBeGreaterThanOrEqual(1);
    const done = await callJson<Archive>(`/api/platform/archives/${id}`, { token: operator });
    expect(done.body).toMatchObject({ status: "ready" });
    // A repeated run changes nothing.
    await runArchiveJob(at);
    const same = await callJson<Archive>(`/api/platform/archives/${id}`, { token: operator });
    expect(same.body).toEqual(done.body);
  });

  it("marks failed an import whose isolate died, and an export that died on its last try", async () => {
    const tenant = await createTenant();
    const operator = await operatorToken();
    const first = await callJson<{ archive: Archive }>(`/api/platform/tenants/${tenant.id}/archives`, {
      method: "POST",
      token: operator,
    });
    const exportId = first.body.archive.id;
    await bindings.PLATFORM_DB.prepare(
      "UPDATE tenant_archives SET status = 'running', attempts = 3, lease_until = '2000-01-01T00:00:00.000Z' WHERE id = ?",
    )
      .bind(exportId)
      .run();
    // An import row of the same tenant, running with its lease run out (what a died import leaves).
    const importId = `imp-${exportId}`;
    await bindings.PLATFORM_DB.prepare(
      `INSERT INTO tenant_archives (id, kind, tenant_id, tenant_slug, status, requested_by, requested_as, attempts, lease_until, created_at)
       SELECT ?, 'import', tenant_id, tenant_slug, 'running', requested_by, 'operator', 1, '2000-01-01T00:00:00.000Z', created_at
       FROM tenant_archives WHERE id = ?`,
    )
      .bind(importId, exportId)
      .run();
    await runArchiveJob(new Date(Date.now() + 60_000));
    const rows = await bindings.PLATFORM_DB.prepare(
      "SELECT id, status, error FROM tenant_archives WHERE id IN (?, ?) ORDER BY kind",
    )
      .bind(exportId, importId)
      .all();
    expect(rows.results).toEqual([
      { id: exportId, status: "failed", error: "the export stopped before it finished" },
      { id: importId, status: "failed", error: "the import stopped before it finished" },
    ]);
  });

  it("an expired archive's download is 410, and the hourly sweep deletes its object", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const archive = await exportOf(admin);
    const key = `archives/${tenant.id}/${archive.id}.zip`;
    expect(await bindings.FILES.head(key)).not.toBeNull();
    await bindings.PLATFORM_DB.prepare("UPDATE tenant_archives SET expires_at = ? WHERE id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), archive.id)
      .run();
    expectProblem(
      await callJson(`/api/archives/${archive.id}/download`, { token: admin.token }),
      410,
      "archive_expired",
    );
    await runArchiveJob(new Date());
    expect(await bindings.FILES.head(key)).toBeNull();
    const after = await callJson<Archive>(`/api/archives/${archive.id}`, { token: admin.token });
    expect(after.body).toMatchObject({ status: "expired", downloadUrl: null });
    expectProblem(
      await callJson(`/api/archives/${archive.id}/download`, { token: admin.token }),
      410,
      "archive_expired",
    );
  });
});
