import { eq } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { platformDb } from "../../../src/core/db/platform";
import { tenants } from "../../../src/core/db/platform-schema";
import { TENANT_MIGRATIONS } from "../../../src/core/db/tenant-migrations.generated";
import { slotCount } from "../../../src/core/tenancy/slots";
import { tenantD1, withTrigger } from "../../helpers/d1";
import {
  bindings,
  call,
  callJson,
  createTenant,
  expectProblem,
  type Member,
  operatorToken,
  PASSWORD,
  type TestTenant,
} from "../../helpers/harness";
import { runArchiveJob } from "../platform-ops/helpers";
import { closeSettled, runClosingJob } from "./helpers";

/** Issue 27, item 6: closing a community. */

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

async function tenantRow(id: string) {
  return platformDb(bindings).select().from(tenants).where(eq(tenants.id, id)).get();
}

/** The tables left in a slot's database (SQLite's and D1's own aside). */
async function tablesIn(slot: number): Promise<string[]> {
  const { results } = await tenantD1({ slot })
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
    .all<{ name: string }>();
  return results.map((r) => r.name).filter((n) => !n.startsWith("sqlite_") && !n.startsWith("_cf_"));
}

/** The slot a tenant created now would take: the lowest one no tenant row holds. */
async function lowestFreeSlot(): Promise<number | undefined> {
  const held = new Set(
    (await platformDb(bindings).select({ slot: tenants.slot }).from(tenants)).map((t) => t.slot),
  );
  return Array.from({ length: slotCount(bindings) }, (_, i) => i + 1).find((n) => !held.has(n));
}

/** A community with a unit in its registry, an admin and a resident signed in. */
async function community(): Promise<{ tenant: TestTenant; admin: Member; warga: Member; block: string }> {
  const tenant = await createTenant();
  const [admin, warga] = [await tenant.member("admin"), await tenant.member("warga")];
  const block = `Z${tenant.slot}`;
  const unit = await callJson("/api/kependudukan/units", {
    token: admin.token,
    body: { block, number: "7" },
  });
  expect(unit.status).toBe(201);
  return { tenant, admin, warga, block };
}

async function archive(id: string) {
  return callJson<{ status: string; kind: string; tenantId: string; expiresAt: string | null }>(
    `/api/platform/archives/${id}`,
    { token: await operatorToken() },
  );
}

describe("DELETE /api/platform/tenants/:id", () => {
  it("refuses a slug that does not match, an unknown tenant and anyone but an operator", async () => {
    const { tenant, admin } = await community();
    const wrong = await closeSettled(tenant.id, `${tenant.slug}-x`);
    expectProblem(wrong, 400, "confirm_slug_mismatch");
    expect(JSON.stringify(wrong.body)).toContain('"field":"confirmSlug"');
    expectProblem(await closeSettled("01HZZZZZZZZZZZZZZZZZZZZZZZ", tenant.slug), 404, "tenant_not_found");
    expectProblem(await closeSettled(tenant.id, tenant.slug, admin.token), 403, "forbidden_role");
    expect((await tenantRow(tenant.id))?.status).toBe("active");
    expect((await callJson("/api/kependudukan/units", { token: admin.token })).status).toBe(200);
  });

  it("stops serving at once: old tokens, sign-in, refresh, public pages and operator changes answer 410 or are refused", async () => {
    const { tenant, admin, warga } = await community();
    const session = await callJson<{ refreshToken: string }>("/api/auth/login", {
      body: { email: warga.email, password: PASSWORD, tenant: tenant.slug },
    });
    expect(session.status).toBe(200);
    // Both tokens were used a moment ago: their sign-ins are cached as live in this isolate.
    expect((await callJson("/api/kependudukan/units", { token: admin.token })).status).toBe(200);
    expect((await callJson("/api/iuran/mine", { token: warga.token })).status).not.toBe(410);

    const closed = await closeSettled(tenant.id, tenant.slug);
    expect(closed.status).toBe(202);
    expect(closed.body.tenant).toMatchObject({
      id: tenant.id,
      status: "ditutup",
      closedAt: expect.any(String),
    });
    expect(closed.body.archiveId).toEqual(expect.any(String));

    expectProblem(await callJson("/api/kependudukan/units", { token: admin.token }), 410, "tenant_closed");
    expectProblem(await callJson("/api/iuran/mine", { token: warga.token }), 410, "tenant_closed");
    expectProblem(
      await callJson("/api/kependudukan/units", { token: admin.token, body: { block: "Q", number: "1" } }),
      410,
      "tenant_closed",
    );
    // Issue 42: its members hear that the community closed (410), not that they never belonged.
    expectProblem(
      await callJson("/api/auth/login", {
        body: { email: warga.email, password: PASSWORD, tenant: tenant.slug },
      }),
      410,
      "tenant_closed",
    );
    expectProblem(
      await callJson("/api/auth/login", { body: { email: admin.email, password: PASSWORD } }),
      410,
      "tenant_closed",
    );
    const refreshed = await callJson("/api/auth/refresh", {
      body: { refreshToken: session.body.refreshToken },
    });
    expect(refreshed.status).toBe(401);
    expectProblem(
      await callJson(`/api/public/tenants/${tenant.slug}/applications`, {
        body: { fullName: "Warga Baru", whatsapp: "081355500011", block: "A", houseNumber: "3" },
      }),
      410,
      "tenant_closed",
    );
    expectProblem(
      await callJson(`/api/public/tenants/${tenant.slug}/laporan?bulan=2026-03`),
      410,
      "tenant_closed",
    );
    const token = await operatorToken();
    expectProblem(
      await callJson(`/api/platform/tenants/${tenant.id}`, {
        method: "PATCH",
        token,
        body: { name: "Dibuka Lagi" },
      }),
      410,
      "tenant_closed",
    );
    expectProblem(
      await callJson(`/api/platform/tenants/${tenant.id}/admin-invitations`, {
        token,
        body: { name: "Ketua Baru", email: "ketua.baru@warga.test" },
      }),
      410,
      "tenant_closed",
    );
    expectProblem(await closeSettled(tenant.id, tenant.slug), 410, "tenant_closed");
  });

  it("writes the archive first, then empties the slot and returns it to the pool for the next tenant", async () => {
    const { tenant, block } = await community();
    const slot = tenant.slot;
    const closed = await closeSettled(tenant.id, tenant.slug);
    expect(closed.status).toBe(202);

    const made = await archive(closed.body.archiveId);
    expect(made.body).toMatchObject({ kind: "export", status: "ready", tenantId: tenant.id });
    // A closed community's archive is kept 30 days (other archives 7).
    const kept = Date.parse(made.body.expiresAt ?? "") - Date.now();
    expect(kept).toBeGreaterThan(29 * DAY_MS);
    expect(kept).toBeLessThanOrEqual(30 * DAY_MS);
    const download = await call(`/api/platform/archives/${closed.body.archiveId}/download`, {
      token: await operatorToken(),
    });
    expect(download.status).toBe(200);
    const zip = unzipSync(new Uint8Array(await download.arrayBuffer()));
    expect(strFromU8(zip["tables/units.json"] ?? new Uint8Array())).toContain(block);

    const row = await tenantRow(tenant.id);
    expect(row).toMatchObject({ status: "ditutup", slot: null, slug: tenant.slug });
    expect(await tablesIn(slot)).toEqual([]);
    const list = await callJson<{ items: { id: string; slot: number | null; status: string }[] }>(
      "/api/platform/tenants?status=ditutup&limit=100",
      { token: await operatorToken() },
    );
    expect(list.body.items.find((t) => t.id === tenant.id)).toMatchObject({ slot: null, status: "ditutup" });
    const trail = await callJson<{ items: { action: string; targetId: string }[] }>(
      `/api/platform/audit?tenant=${tenant.slug}`,
      { token: await operatorToken() },
    );
    expect(trail.body.items.filter((e) => e.targetId === tenant.id).map((e) => e.action)).toEqual([
      "tenant.slot_released",
      "tenant.close",
      "tenant.create",
    ]);

    // The next tenant takes the slot and starts from a clean, fully migrated database.
    expect(await lowestFreeSlot()).toBe(slot);
    const next = await createTenant();
    expect(next.slot).toBe(slot);
    const applied = await tenantD1(next)
      .prepare("SELECT COUNT(*) AS n FROM d1_migrations")
      .first<{ n: number }>();
    expect(applied?.n).toBe(TENANT_MIGRATIONS.length);
    const admin = await next.member("admin");
    const units = await callJson<{ items: { block: string }[] }>("/api/kependudukan/units", {
      token: admin.token,
    });
    expect(units.status).toBe(200);
    expect(units.body.items).toEqual([]);
    const unit = await callJson("/api/kependudukan/units", {
      token: admin.token,
      body: { block: "B", number: "1" },
    });
    expect(unit.status).toBe(201);
  });

  it("keeps the slot while the archive is not ready, and the hourly job finishes both", async () => {
    const { tenant, block } = await community();
    const slot = tenant.slot;
    // The archive's "ready" is refused once: the export counts as failed and goes back to the queue.
    const closed = await withTrigger(
      bindings.PLATFORM_DB,
      "fail_closing_archive",
      `BEFORE UPDATE OF status ON tenant_archives
         WHEN NEW.status = 'ready' AND OLD.tenant_id = '${tenant.id}'
         BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      () => closeSettled(tenant.id, tenant.slug),
    );
    expect(closed.status).toBe(202);
    expect((await archive(closed.body.archiveId)).body.status).toBe("queued");
    expect((await tenantRow(tenant.id))?.slot).toBe(slot);
    const units = await tenantD1({ slot }).prepare("SELECT block FROM units").all<{ block: string }>();
    expect(units.results.map((u) => u.block)).toContain(block);
    expect(await lowestFreeSlot()).not.toBe(slot);

    const report = await runClosingJob(new Date(Date.now() + HOUR_MS));
    expect(report["tenants.closing"]).toMatchObject({ released: 1, failed: 0 });
    expect((await archive(closed.body.archiveId)).body.status).toBe("ready");
    expect((await tenantRow(tenant.id))?.slot).toBeNull();
    expect(await tablesIn(slot)).toEqual([]);
  });

  it("after a crash between the archive and the wipe, keeps the slot from reuse until the job has emptied it", async () => {
    const { tenant } = await community();
    const slot = tenant.slot;
    // Returning the slot to the pool fails once, after the archive is ready.
    const closed = await withTrigger(
      bindings.PLATFORM_DB,
      "fail_slot_release",
      `BEFORE UPDATE OF slot ON tenants
         WHEN OLD.id = '${tenant.id}' AND NEW.slot IS NULL
         BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      () => closeSettled(tenant.id, tenant.slug),
    );
    expect(closed.status).toBe(202);
    expect((await archive(closed.body.archiveId)).body.status).toBe("ready");
    expect(await tenantRow(tenant.id)).toMatchObject({ status: "ditutup", slot });
    expectProblem(
      await callJson(`/api/platform/tenants/${tenant.id}`, {
        method: "PATCH",
        token: await operatorToken(),
        body: { name: "Nama Baru" },
      }),
      410,
      "tenant_closed",
    );

    const meanwhile = await createTenant();
    expect(meanwhile.slot).not.toBe(slot);
    // The archive job alone does not touch the slot; and right after the archive was made, the closing
    // job leaves the wipe to the runner that built it.
    await runArchiveJob(new Date(Date.now() + HOUR_MS));
    expect((await runClosingJob(new Date()))["tenants.closing"]).toMatchObject({ released: 0, waiting: 1 });
    expect((await tenantRow(tenant.id))?.slot).toBe(slot);

    const report = await runClosingJob(new Date(Date.now() + HOUR_MS));
    expect(report["tenants.closing"]).toMatchObject({ released: 1, failed: 0 });
    expect((await tenantRow(tenant.id))?.slot).toBeNull();
    expect(await tablesIn(slot)).toEqual([]);
    expect((await runClosingJob(new Date(Date.now() + 2 * HOUR_MS)))["tenants.closing"]).toMatchObject({
      released: 0,
      waiting: 0,
    });
    const reused = await createTenant();
    expect(reused.slot).toBe(slot);
  });

  it("deletes the community's files from R2 when its archive's 30 days are over, and only its own", async () => {
    const { tenant } = await community();
    const mine = [`tenants/${tenant.id}/files/bukti/01A.png`, `tenants/${tenant.slug}/surat/01B/v1.pdf`];
    const theirs = `tenants/01OTHERTENANT0000000000000/files/bukti/01C.png`;
    for (const key of [...mine, theirs]) {
      await bindings.FILES.put(key, "isi");
    }
    const closed = await closeSettled(tenant.id, tenant.slug);
    expect(closed.status).toBe(202);
    expect((await tenantRow(tenant.id))?.slot).toBeNull();
    const present = async (key: string) => (await bindings.FILES.head(key)) !== null;

    // Within the window the files stay (the archive holds them too, for the community to ask for).
    await runClosingJob(new Date(Date.now() + 29 * DAY_MS));
    expect(await Promise.all(mine.map(present))).toEqual([true, true]);

    const after = await runClosingJob(new Date(Date.now() + 30 * DAY_MS + HOUR_MS));
    expect(after["tenants.closing"]).toMatchObject({ failed: 0 });
    expect((after["tenants.closing"] as { filesDeleted: number }).filesDeleted).toBeGreaterThanOrEqual(2);
    expect(await Promise.all(mine.map(present))).toEqual([false, false]);
    expect(await present(theirs)).toBe(true);
    const trail = await callJson<{ items: { action: string; targetId: string }[] }>(
      `/api/platform/audit?tenant=${tenant.slug}`,
      { token: await operatorToken() },
    );
    expect(trail.body.items.filter((e) => e.targetId === tenant.id).map((e) => e.action)).toContain(
      "tenant.files_deleted",
    );
    // Done once: a later run does not list its prefixes again.
    await bindings.FILES.put(mine[0] as string, "isi");
    await runClosingJob(new Date(Date.now() + 31 * DAY_MS));
    expect(await present(mine[0] as string)).toBe(true);
    await bindings.FILES.delete([...mine, theirs]);
  });

  it("unlinks a closing RW from its RTs", async () => {
    const rw = await createTenant({ type: "RW" });
    const rt = await createTenant({ parentSlug: rw.slug });
    expect((await tenantRow(rt.id))?.parentId).toBe(rw.id);
    expect((await closeSettled(rw.id, rw.slug)).status).toBe(202);
    expect(await tenantRow(rt.id)).toMatchObject({ parentId: null, linkedAt: null, status: "active" });
    const admin = await rt.member("admin");
    expect((await callJson("/api/kependudukan/units", { token: admin.token })).status).toBe(200);
  });
});
