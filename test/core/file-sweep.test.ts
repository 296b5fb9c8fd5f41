import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { fileReferences, jobs } from "../../src/app";
import { CRON, runScheduled } from "../../src/core/jobs";
import type { FileReference } from "../../src/core/module";
import { systemPlatformCtx, systemTenantCtx } from "../../src/core/tenancy/system";
import { FILE_SWEEP_GRACE_MS, FILE_SWEEP_JOB, sweepUnattachedFiles } from "../../src/platform/uploads/sweep";
import {
  bindings,
  call,
  callJson,
  createTenant,
  type Member,
  operatorToken,
  type TestTenant,
} from "../helpers/harness";
import { CLEAN_PNG } from "../modules/galeri-pasar/images";
import { postFile, type StoredFile } from "../modules/galeri-pasar/post";
import { community } from "../modules/keuangan/helpers";

const slotDb = (slot: number) =>
  (env as unknown as Record<string, D1Database>)[`TENANT_DB_${String(slot).padStart(2, "0")}`] as D1Database;

interface FileRow {
  id: string;
  r2_key: string;
  created_at: string;
}

async function upload(who: Member, purpose: string): Promise<StoredFile> {
  const res = await postFile("/api/files", {
    token: who.token,
    bytes: CLEAN_PNG,
    name: "foto.png",
    type: "image/png",
    fields: { purpose },
  });
  expect(res.status).toBe(201);
  return res.body as StoredFile;
}

const fileRow = (tenant: TestTenant, id: string) =>
  slotDb(tenant.slot)
    .prepare("SELECT id, r2_key, created_at FROM files WHERE id = ?")
    .bind(id)
    .first<FileRow>();

async function row(tenant: TestTenant, id: string): Promise<FileRow> {
  const found = await fileRow(tenant, id);
  if (!found) {
    throw new Error(`no files row ${id}`);
  }
  return found;
}

const stored = async (key: string) => (await bindings.FILES.head(key)) !== null;

/** Whether the file is whole (row and object), gone (neither), or half there. */
async function state(
  tenant: TestTenant,
  file: FileRow,
): Promise<"kept" | "gone" | "row only" | "object only"> {
  const [hasRow, hasObject] = [(await fileRow(tenant, file.id)) !== null, await stored(file.r2_key)];
  return hasRow && hasObject ? "kept" : hasRow ? "row only" : hasObject ? "object only" : "gone";
}

/** The moment `ms` after the file's row was written: the sweep's `scheduledAt`, never the wall clock. */
const sweepTime = (file: FileRow, ms: number) => new Date(Date.parse(file.created_at) + ms);
const DAY_AND_A_SECOND = FILE_SWEEP_GRACE_MS + 1000;

async function sweep(tenant: TestTenant, at: Date, references: readonly FileReference[] = fileReferences) {
  return sweepUnattachedFiles(await systemTenantCtx(bindings, tenant.slug, "test"), at, references);
}

/** Every object under a tenant's file prefix. */
async function objects(tenant: TestTenant): Promise<string[]> {
  const page = await bindings.FILES.list({ prefix: `tenants/${tenant.id}/files/` });
  return page.objects.map((o) => o.key).sort();
}

/**
 * What is wrong with the declarations against a tenant database's schema: a table or column that does
 * not exist, and an `id` reference on a column that is not text. A column whose name says it holds a
 * file id (`*_file_id`, `file_id`) and that nobody declared is reported too.
 */
async function declarationProblems(db: D1Database, references: readonly FileReference[]): Promise<string[]> {
  const tables = await db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'",
    )
    .all<{ name: string }>();
  const columns = new Map<string, string>();
  for (const { name } of tables.results) {
    const info = await db.prepare(`PRAGMA table_info("${name}")`).all<{ name: string; type: string }>();
    for (const column of info.results) {
      columns.set(`${name}.${column.name}`, column.type);
    }
  }
  const problems: string[] = [];
  const declared = new Set<string>();
  for (const ref of references) {
    const key = `${ref.table}.${ref.column}`;
    declared.add(key);
    const type = columns.get(key);
    if (type === undefined) {
      problems.push(`${key}: declared, but no such column in the tenant schema`);
    } else if (!/TEXT/i.test(type)) {
      problems.push(`${key}: declared, but its type is ${type}, not text`);
    }
  }
  for (const key of columns.keys()) {
    if (/(^|_)file_id$/.test(key.split(".")[1] ?? "") && !declared.has(key)) {
      problems.push(`${key}: looks like a file reference, but no module declares it`);
    }
  }
  return problems;
}

describe("file references declared by the modules", () => {
  it("name tables and columns of the tenant schema, and every *file_id column is declared", async () => {
    const tenant = await createTenant();
    const db = slotDb(tenant.slot);
    expect(await declarationProblems(db, fileReferences)).toEqual([]);
    // One per module that keeps files, and none twice.
    const keys = fileReferences.map((r) => `${r.table}.${r.column}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.sort()).toEqual([
      "berita.cover_file_id",
      "campaigns.cover_file_id",
      "cash_entries.attachment_file_id",
      "complaints.photo",
      "dues_payments.proof_file_id",
      "expenses.receipt_file_id",
      "gallery_photos.id",
      "pasar_photos.file_id",
      "visitors.photo_file_id",
    ]);
    // The check itself catches a renamed column and a forgotten one.
    const renamed = fileReferences.map((r) =>
      r.table === "dues_payments" ? { ...r, column: "proof_id" } : r,
    );
    expect(await declarationProblems(db, renamed)).toEqual([
      "dues_payments.proof_id: declared, but no such column in the tenant schema",
      "dues_payments.proof_file_id: looks like a file reference, but no module declares it",
    ]);
  });

  it("a declaration naming a missing column stops that tenant's sweep instead of deleting", async () => {
    const tenant = await createTenant();
    const warga = await tenant.member("warga");
    const file = await row(tenant, (await upload(warga, "bukti_bayar")).id);
    const wrong = [...fileReferences, { table: "dues_payments", column: "proof_id" }];
    const failure = await sweep(tenant, sweepTime(file, DAY_AND_A_SECOND), wrong).catch((e: unknown) => e);
    expect(String((failure as Error).cause)).toMatch(/no such column: dues_payments.proof_id/);
    await expect(sweep(tenant, sweepTime(file, DAY_AND_A_SECOND), [])).rejects.toThrow(/no file references/);
    expect(await state(tenant, file)).toBe("kept");
  });
});

describe("the daily sweep of unattached uploads", () => {
  it("deletes an upload nothing points at once it is older than 24 hours: row and R2 object", async () => {
    const tenant = await createTenant();
    const warga = await tenant.member("warga");
    const proof = await upload(warga, "bukti_bayar");
    const file = await row(tenant, proof.id);
    expect(await state(tenant, file)).toBe("kept");

    expect(await sweep(tenant, sweepTime(file, DAY_AND_A_SECOND))).toEqual({
      checked: 1,
      deleted: 1,
      orphans: 0,
    });
    expect(await state(tenant, file)).toBe("gone");
    expect((await call(`/api/files/${proof.id}`, { token: warga.token })).status).toBe(404);
  });

  it("keeps an upload younger than 24 hours, to the millisecond", async () => {
    const tenant = await createTenant();
    const warga = await tenant.member("warga");
    const file = await row(tenant, (await upload(warga, "pasar")).id);

    expect(await sweep(tenant, sweepTime(file, FILE_SWEEP_GRACE_MS))).toEqual({
      checked: 0,
      deleted: 0,
      orphans: 0,
    });
    expect(await state(tenant, file)).toBe("kept");
    expect(await sweep(tenant, sweepTime(file, FILE_SWEEP_GRACE_MS + 1))).toMatchObject({ deleted: 1 });
    expect(await state(tenant, file)).toBe("gone");
  });

  it("keeps every file a declared column points at, one of each kind, and deletes only the unattached one", async () => {
    const c = await community();
    const { tenant, bendahara, sek } = c;
    const warga = c.home.warga;
    const attached: Record<string, string> = {};
    const created = async (res: Promise<{ status: number; body: unknown }>) => {
      const done = await res;
      expect(done.status, JSON.stringify(done.body)).toBe(201);
      return done.body as { id: string };
    };

    // keuangan: a proof on a dues payment, a scan on a cash entry, a receipt, a campaign's cover.
    await created(
      callJson("/api/iuran/jenis", {
        token: bendahara.token,
        body: { name: "Iuran kebersihan", amount: 25_000, basis: "unit", startPeriod: "2026-01" },
      }),
    );
    await callJson("/api/iuran/tagihan/generate", { token: bendahara.token, body: { period: "2026-02" } });
    const bills = await callJson<{ items: { id: string }[] }>(
      `/api/iuran/tagihan?period=2026-02&unitId=${c.home.unitId}`,
      { token: bendahara.token },
    );
    const proof = await upload(warga, "bukti_bayar");
    await created(
      callJson(`/api/iuran/tagihan/${bills.body.items[0]?.id}/pembayaran`, {
        token: bendahara.token,
        body: {
          amount: 5_000,
          method: "transfer",
          paidAt: "2026-02-04T03:00:00.000Z",
          proofFileId: proof.id,
        },
      }),
    );
    attached["dues_payments.proof_file_id"] = proof.id;

    const scan = await upload(bendahara, "lampiran_kas");
    await created(
      callJson("/api/kas", {
        token: bendahara.token,
        body: {
          kind: "keluar",
          category: "ATK",
          amount: 45_000,
          date: "2026-02-02",
          note: "Beli map",
          attachmentFileId: scan.id,
        },
      }),
    );
    attached["cash_entries.attachment_file_id"] = scan.id;

    const receipt = await upload(bendahara, "nota");
    await created(
      callJson("/api/pengeluaran", {
        token: bendahara.token,
        body: {
          category: "Keamanan",
          amount: 20_000,
          date: "2026-01-10",
          description: "Gaji satpam",
          receiptFileId: receipt.id,
        },
      }),
    );
    attached["expenses.receipt_file_id"] = receipt.id;

    const campaignCover = await upload(sek, "sampul");
    await created(
      callJson("/api/kampanye", {
        token: bendahara.token,
        body: {
          title: "Renovasi pos ronda",
          description: "Atap pos ronda bocor",
          target: 5_000_000,
          deadline: "2030-12-31",
          coverFileId: campaignCover.id,
        },
      }),
    );
    attached["campaigns.cover_file_id"] = campaignCover.id;

    // konten: a news item's cover.
    const newsCover = await upload(sek, "sampul");
    await created(
      callJson("/api/berita", {
        token: sek.token,
        body: { title: "Kerja bakti", body: "Minggu pagi.", status: "terbit", coverFileId: newsCover.id },
      }),
    );
    attached["berita.cover_file_id"] = newsCover.id;

    // pasar: a listing's photo.
    const listingPhoto = await upload(warga, "pasar");
    await created(
      callJson("/api/pasar/listings", {
        token: warga.token,
        body: {
          title: "Nasi uduk Bu Sri",
          description: "Setiap pagi",
          price: 12_000,
          category: "makanan",
          condition: "baru",
          photoIds: [listingPhoto.id],
        },
      }),
    );
    attached["pasar_photos.file_id"] = listingPhoto.id;

    // galeri: a photo stored by the gallery's own route (its id is the file's).
    const album = await created(
      callJson("/api/galeri", { token: sek.token, body: { title: "Kerja bakti Agustus" } }),
    );
    const photo = await postFile(`/api/galeri/${album.id}/foto`, {
      token: sek.token,
      bytes: CLEAN_PNG,
      name: "foto.png",
      type: "image/png",
    });
    expect(photo.status).toBe(201);
    attached["gallery_photos.id"] = (photo.body as { id: string }).id;

    // aspirasi: complaint evidence named by its URL in the complaint's photo (text, not an id column).
    const evidence = await upload(warga, "pengaduan");
    await created(
      callJson("/api/pengaduan", {
        token: warga.token,
        body: {
          title: "Lampu jalan mati",
          description: "Lampu di depan blok C mati sejak Senin",
          category: "infrastruktur",
          photo: `/api/files/${evidence.id}`,
        },
      }),
    );
    attached["complaints.photo"] = evidence.id;

    // visitor: a walk-in's photo, taken by the guard at the gate (issue 45).
    const satpam = await tenant.member("satpam");
    const unit = await callJson<{ block: string; number: string }>(
      `/api/kependudukan/units/${c.home.unitId}`,
      {
        token: sek.token,
      },
    );
    const walkIn = await created(
      callJson("/api/visitor/gate/walk-in", {
        token: satpam.token,
        body: { guestName: "Kurir JNE", category: "kurir", block: unit.body.block, number: unit.body.number },
      }),
    );
    const gatePhoto = await postFile(`/api/visitor/${walkIn.id}/foto`, {
      token: satpam.token,
      bytes: CLEAN_PNG,
      name: "foto.png",
      type: "image/png",
    });
    expect(gatePhoto.status).toBe(200);
    const pointer = await slotDb(tenant.slot)
      .prepare("SELECT photo_file_id AS id FROM visitors WHERE id = ?")
      .bind(walkIn.id)
      .first<{ id: string }>();
    attached["visitors.photo_file_id"] = pointer?.id ?? "";

    // Every declared reference has its case here.
    expect(Object.keys(attached).sort()).toEqual(fileReferences.map((r) => `${r.table}.${r.column}`).sort());

    const loose = await row(tenant, (await upload(warga, "bukti_bayar")).id);
    const files = await Promise.all(Object.values(attached).map((id) => row(tenant, id)));
    const at = sweepTime(loose, 2 * FILE_SWEEP_GRACE_MS);

    expect(await sweep(tenant, at)).toEqual({ checked: files.length + 1, deleted: 1, orphans: 0 });
    expect(await state(tenant, loose)).toBe("gone");
    for (const [reference, id] of Object.entries(attached)) {
      const file = files.find((f) => f.id === id) as FileRow;
      expect({ reference, state: await state(tenant, file) }).toEqual({ reference, state: "kept" });
    }
  });

  it("changes nothing when run again for the same moment", async () => {
    const tenant = await createTenant();
    const warga = await tenant.member("warga");
    const evidence = await upload(warga, "pengaduan");
    await callJson("/api/pengaduan", {
      token: warga.token,
      body: {
        title: "Sampah menumpuk",
        description: "Sampah di ujung gang belum diangkut",
        category: "kebersihan",
        photo: `/api/files/${evidence.id}`,
      },
    });
    const loose = await row(tenant, (await upload(warga, "pengaduan")).id);
    const at = sweepTime(loose, DAY_AND_A_SECOND);

    expect(await sweep(tenant, at)).toEqual({ checked: 2, deleted: 1, orphans: 0 });
    const rows = await slotDb(tenant.slot).prepare("SELECT id FROM files ORDER BY id").all();
    const keys = await objects(tenant);
    expect(await sweep(tenant, at)).toEqual({ checked: 1, deleted: 0, orphans: 0 });
    expect((await slotDb(tenant.slot).prepare("SELECT id FROM files ORDER BY id").all()).results).toEqual(
      rows.results,
    );
    expect(await objects(tenant)).toEqual(keys);
    expect(keys).toHaveLength(1);
  });

  it("removes complaint evidence once erasure has blanked the complaint's photo", async () => {
    const tenant = await createTenant();
    const warga = await tenant.member("warga");
    const evidence = await row(tenant, (await upload(warga, "pengaduan")).id);
    const complaint = await callJson("/api/pengaduan", {
      token: warga.token,
      body: {
        title: "Lampu jalan mati",
        description: "Lampu di depan rumah saya mati",
        category: "infrastruktur",
        photo: `/api/files/${evidence.id}`,
      },
    });
    expect(complaint.status).toBe(201);
    const at = sweepTime(evidence, DAY_AND_A_SECOND);
    expect(await sweep(tenant, at)).toMatchObject({ deleted: 0 });

    const erased = await callJson(`/api/platform/tenants/${tenant.id}/erasures`, {
      token: await operatorToken(),
      body: { userId: warga.id },
    });
    expect(erased.status).toBe(200);
    expect(await sweep(tenant, at)).toEqual({ checked: 1, deleted: 1, orphans: 0 });
    expect(await state(tenant, evidence)).toBe("gone");
  });

  it("finishes what an interrupted run left: a row without its object, an object without its row", async () => {
    const tenant = await createTenant();
    const warga = await tenant.member("warga");
    const db = slotDb(tenant.slot);
    // Row deleted, object left (a run stopped between its DELETE and the R2 delete).
    const rowGone = await row(tenant, (await upload(warga, "pasar")).id);
    await db.prepare("DELETE FROM files WHERE id = ?").bind(rowGone.id).run();
    // Object gone, row left (deleted by hand, or a store that lost it).
    const objectGone = await row(tenant, (await upload(warga, "pasar")).id);
    await bindings.FILES.delete(objectGone.r2_key);
    expect([await state(tenant, rowGone), await state(tenant, objectGone)]).toEqual([
      "object only",
      "row only",
    ]);

    // Within the grace period an object without a row may be an upload whose row is being written.
    expect(await sweep(tenant, sweepTime(objectGone, 60_000))).toEqual({
      checked: 0,
      deleted: 0,
      orphans: 0,
    });
    expect(await state(tenant, rowGone)).toBe("object only");

    const at = sweepTime(objectGone, DAY_AND_A_SECOND);
    expect(await sweep(tenant, at)).toEqual({ checked: 1, deleted: 1, orphans: 1 });
    expect([await state(tenant, rowGone), await state(tenant, objectGone)]).toEqual(["gone", "gone"]);
    expect(await sweep(tenant, at)).toEqual({ checked: 0, deleted: 0, orphans: 0 });
  });

  it("leaves another tenant's files alone: its rows and its objects, even unattached and old", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const [wa, wb] = [await a.member("warga"), await b.member("warga")];
    const mine = await row(a, (await upload(wa, "bukti_bayar")).id);
    const theirs = await row(b, (await upload(wb, "bukti_bayar")).id);
    const theirOrphan = await row(b, (await upload(wb, "bukti_bayar")).id);
    await slotDb(b.slot).prepare("DELETE FROM files WHERE id = ?").bind(theirOrphan.id).run();

    const at = sweepTime(theirOrphan, DAY_AND_A_SECOND);
    expect(await sweep(a, at)).toEqual({ checked: 1, deleted: 1, orphans: 0 });
    expect(await state(a, mine)).toBe("gone");
    expect(await state(b, theirs)).toBe("kept");
    expect(await state(b, theirOrphan)).toBe("object only");
  });

  it("leaves a tenant alone while an archive import into it runs (its file rows come before the rows that point at them)", async () => {
    const job = jobs.find((j) => j.name === FILE_SWEEP_JOB);
    const tenant = await createTenant();
    const warga = await tenant.member("warga");
    const loose = await row(tenant, (await upload(warga, "pasar")).id);
    const importing = (status: string) =>
      bindings.PLATFORM_DB.prepare(
        `INSERT INTO tenant_archives (id, kind, tenant_id, tenant_slug, status, requested_by, requested_as)
         VALUES (?, 'import', ?, ?, ?, 'operator-test', 'operator')`,
      )
        .bind(`imp-${status}-${tenant.id}`, tenant.id, tenant.slug, status)
        .run();
    const run = () =>
      runScheduled(
        systemPlatformCtx(bindings, "test"),
        job ? [job] : [],
        CRON.JAKARTA_DAILY,
        sweepTime(loose, DAY_AND_A_SECOND),
      );
    await importing("running");
    expect((await run())[FILE_SWEEP_JOB]).toMatchObject({ held: 1 });
    expect(await state(tenant, loose)).toBe("kept");
    // Once the import has finished, the next run sweeps as usual.
    await bindings.PLATFORM_DB.prepare("UPDATE tenant_archives SET status = 'ready' WHERE tenant_id = ?")
      .bind(tenant.id)
      .run();
    await run();
    expect(await state(tenant, loose)).toBe("gone");
  });

  it("runs daily for every tenant, sums the counts, and one tenant's failure keeps its files and stops no one else", async () => {
    const job = jobs.find((j) => j.name === FILE_SWEEP_JOB);
    expect(job?.cron).toBe(CRON.JAKARTA_DAILY);
    const ok = await createTenant();
    const broken = await createTenant();
    const [wo, wb] = [await ok.member("warga"), await broken.member("warga")];
    const loose = await row(ok, (await upload(wo, "pasar")).id);
    const kept = await row(broken, (await upload(wb, "pasar")).id);
    // A module renamed a declared column without updating its declaration: that tenant's sweep fails.
    await slotDb(broken.slot).prepare("ALTER TABLE complaints RENAME COLUMN photo TO foto").run();

    const ctx = systemPlatformCtx(bindings, "test");
    const reports = await runScheduled(
      ctx,
      job ? [job] : [],
      CRON.JAKARTA_DAILY,
      sweepTime(kept, DAY_AND_A_SECOND),
    );
    const report = reports[FILE_SWEEP_JOB] as Record<string, number>;
    expect(report).toMatchObject({ failed: 1 });
    expect(report.tenants).toBeGreaterThanOrEqual(2);
    expect(report.deleted).toBeGreaterThanOrEqual(1);
    expect(report.checked).toBeGreaterThanOrEqual(report.deleted ?? 0);
    expect(await state(ok, loose)).toBe("gone");
    expect(await state(broken, kept)).toBe("kept");
  });
});
