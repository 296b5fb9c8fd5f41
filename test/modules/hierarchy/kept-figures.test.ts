import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { platformDb } from "../../../src/core/db/platform";
import { MAX_AGE_MS } from "../../../src/modules/hierarchy/figures";
import { rtFigures } from "../../../src/modules/hierarchy/platform-tables";
import { setNow } from "../../helpers/clock";
import { tenantD1 } from "../../helpers/d1";
import {
  bindings,
  callJson,
  createTenant,
  expectProblem,
  type Member,
  operatorToken,
  setTenantStatus,
  type TestTenant,
  unique,
} from "../../helpers/harness";
import { callSettled, complaint, linkAccepted, noFigures, type Summary } from "./helpers";

/**
 * Issue 32: the RW summary reads each RT's figures kept in the platform database (ADR 0038). A
 * successful write to a linked RT refreshes its row after the answer; the summary reads an RT live only
 * when its row is missing, older than the maximum age or older than the RT's current link.
 */

const summary = (token: string) => callJson<Summary>("/api/tenant-hierarchy/summary", { token });

async function keptRow(tenant: { id: string }) {
  return platformDb(bindings).select().from(rtFigures).where(eq(rtFigures.tenantId, tenant.id)).get();
}

async function rwWithRt(): Promise<{ head: Member; rw: TestTenant; rt: TestTenant; warga: Member }> {
  const rw = await createTenant({ type: "RW", slug: unique("rw") });
  const head = await rw.member("admin");
  const rt = await createTenant();
  await linkAccepted(head.token, rt);
  return { head, rw, rt, warga: await rt.member("warga") };
}

/** Closes a complaint below the API: a change no write request of the RT announces. */
async function closeQuietly(rt: TestTenant, id: string) {
  await tenantD1(rt).prepare("UPDATE complaints SET status = 'selesai' WHERE id = ?1").bind(id).run();
}

const minutesLater = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * 60_000);

describe("the RW summary's kept figures", () => {
  it("keeps each RT's figures with the time they were read, and answers from them while fresh", async () => {
    const { head, rt, warga } = await rwWithRt();
    const id = await complaint(warga.token, "Lampu jalan mati");
    const first = await summary(head.token);
    expect(first.status).toBe(200);
    const child = first.body.children.find((c) => c.slug === rt.slug);
    expect(child?.figures?.complaintsOpen).toBe(1);
    const kept = await keptRow(rt);
    expect(kept).toMatchObject({ complaintsOpen: 1, computedAt: child?.asOf });

    // Changed below the API: the summary does not read the RT's database, so the kept figure stays.
    await closeQuietly(rt, id);
    const again = await summary(head.token);
    const same = again.body.children.find((c) => c.slug === rt.slug);
    expect(same).toMatchObject({ figures: { complaintsOpen: 1 }, asOf: child?.asOf, error: null });
  });

  it("moves an RT's figures after a successful write to it, with no read by the summary", async () => {
    const { head, rt, warga } = await rwWithRt();
    await summary(head.token);
    const before = await keptRow(rt);
    expect(before?.complaintsOpen).toBe(0);

    await complaint(warga.token, "Sampah menumpuk");
    const after = await keptRow(rt);
    expect(after?.complaintsOpen).toBe(1);
    expect(after && before && after.computedAt >= before.computedAt).toBe(true);
    const res = await summary(head.token);
    expect(res.body.children.find((c) => c.slug === rt.slug)).toMatchObject({
      figures: { complaintsOpen: 1 },
      asOf: after?.computedAt,
    });
    expect(res.body.total.complaintsOpen).toBe(1);

    // A refused write changes nothing and reads nothing: the row is the one the last write kept.
    const refused = await callSettled("/api/pengaduan", { token: warga.token, body: { title: "" } });
    expect(refused.status).toBe(400);
    expect(await keptRow(rt)).toEqual(after);
  });

  it("leaves the kept row alone on a write of a module that shows nothing in the summary", async () => {
    const { head, rt, warga } = await rwWithRt();
    await summary(head.token);
    const before = await keptRow(rt);
    setNow(minutesLater(before?.computedAt as string, 1));
    const sek = await rt.member("sekretaris");
    const planned = await callSettled("/api/agenda", {
      token: sek.token,
      body: {
        title: "Kerja bakti",
        place: "Balai warga",
        start: "2030-01-05T07:00:00+07:00",
        end: "2030-01-05T10:00:00+07:00",
      },
    });
    expect(planned.status, JSON.stringify(planned.body)).toBe(201);
    expect(await keptRow(rt)).toEqual(before);
    // A complaint (an indicator the summary shows) at the same minute does move it.
    await complaint(warga.token, "Lampu jalan mati");
    expect((await keptRow(rt))?.complaintsOpen).toBe(1);
  });

  it("never lets figures read earlier replace figures read later", async () => {
    const { head, rt, warga } = await rwWithRt();
    await summary(head.token);
    const kept = await keptRow(rt);
    // A refresh whose read started before the kept one (its clock an hour behind) lands after it.
    setNow(minutesLater(kept?.computedAt as string, -60));
    await complaint(warga.token, "Selokan mampet");
    expect(await keptRow(rt)).toEqual(kept);
  });

  it("keeps nothing for a write to an RT that is not linked", async () => {
    const rt = await createTenant();
    const warga = await rt.member("warga");
    await complaint(warga.token, "Jalan berlubang");
    expect(await keptRow(rt)).toBeUndefined();
  });

  it("reads an RT again once its kept row is older than the maximum age", async () => {
    const { head, rt, warga } = await rwWithRt();
    const id = await complaint(warga.token, "Got meluap");
    const first = await summary(head.token);
    const asOf = first.body.children[0]?.asOf as string;
    await closeQuietly(rt, id);

    // Just within the maximum age the kept figure is shown; just past it the RT is read and kept again.
    setNow(new Date(Date.parse(asOf) + MAX_AGE_MS - 60_000));
    expect((await summary(head.token)).body.children[0]).toMatchObject({
      figures: { complaintsOpen: 1 },
      asOf,
    });
    const later = minutesLater(asOf, 16);
    setNow(later);
    const fresh = await summary(head.token);
    const child = fresh.body.children[0];
    expect(child?.figures?.complaintsOpen).toBe(0);
    expect(Date.parse(child?.asOf as string)).toBeGreaterThanOrEqual(later.getTime());
    expect((await keptRow(rt))?.computedAt).toBe(child?.asOf);
  });

  it("lists an RT as unreadable once its row is stale and its database cannot be read", async () => {
    const { head, rt } = await rwWithRt();
    const first = await summary(head.token);
    const asOf = first.body.children[0]?.asOf as string;
    const db = tenantD1(rt);
    await db.prepare("ALTER TABLE complaints RENAME TO complaints_hidden").run();
    try {
      // Fresh: the kept figures answer, the broken database is not read.
      expect((await summary(head.token)).body.children[0]).toMatchObject({ asOf, error: null });
      setNow(minutesLater(asOf, 16));
      const stale = await summary(head.token);
      expect(stale.status).toBe(200);
      expect(stale.body.children[0]).toMatchObject({ figures: null, asOf: null, error: "unreadable" });
      // The stale row is not shown, nor replaced by nothing: it stays until a read succeeds.
      expect((await keptRow(rt))?.computedAt).toBe(asOf);
    } finally {
      await db.prepare("ALTER TABLE complaints_hidden RENAME TO complaints").run();
    }
  });

  it("shows a suspended RT's error whatever is kept", async () => {
    const { head, rt } = await rwWithRt();
    await summary(head.token);
    expect(await keptRow(rt)).toBeDefined();
    await setTenantStatus(rt.slug, "suspended");
    try {
      const res = await summary(head.token);
      expect(res.body.children).toEqual([
        { slug: rt.slug, name: "RT Uji", figures: null, asOf: null, error: "tenant_suspended" },
      ]);
      expect(res.body.total.residents).toBe(0);
    } finally {
      await setTenantStatus(rt.slug, "active");
    }
  });

  it("drops an unlinked RT's row; after a relink its figures are read again", async () => {
    const { head, rt, warga } = await rwWithRt();
    const id = await complaint(warga.token, "Pohon tumbang");
    await summary(head.token);
    expect((await keptRow(rt))?.complaintsOpen).toBe(1);

    const gone = await callJson(`/api/tenant-hierarchy/link-child/${rt.slug}`, {
      method: "DELETE",
      token: head.token,
    });
    expect(gone.status).toBe(204);
    expect(await keptRow(rt)).toBeUndefined();
    const without = await summary(head.token);
    expect(without.body.children).toEqual([]);
    expect(without.body.total.complaintsOpen).toBe(0);
    // A write while unlinked keeps nothing either.
    await complaint(warga.token, "Kabel menjuntai");
    expect(await keptRow(rt)).toBeUndefined();

    await closeQuietly(rt, id);
    const rtAdmin = await rt.member("admin");
    await linkAccepted(head.token, rt, rtAdmin.token);
    const relinked = await summary(head.token);
    expect(relinked.body.children[0]?.figures?.complaintsOpen).toBe(1);
  });

  it("never shows a row kept before the RT's current link (the operator unlinks and links again)", async () => {
    const { head, rw, rt, warga } = await rwWithRt();
    const id = await complaint(warga.token, "Air PAM mati");
    const first = await summary(head.token);
    const asOf = first.body.children[0]?.asOf as string;
    const operator = await operatorToken();
    const patch = (parentSlug: string | null) =>
      callJson(`/api/platform/tenants/${rt.id}`, { method: "PATCH", token: operator, body: { parentSlug } });
    expect((await patch(null)).status).toBe(200);
    // The operator's route is not the RW's unlink: the row stays, but no summary lists the RT.
    expect(await keptRow(rt)).toBeDefined();
    expect((await summary(head.token)).body.children).toEqual([]);

    await closeQuietly(rt, id);
    setNow(minutesLater(asOf, 1));
    expect((await patch(rw.slug)).status).toBe(200);
    const relinked = (await summary(head.token)).body.children[0];
    expect(relinked?.figures?.complaintsOpen).toBe(0);
    expect(relinked?.asOf && relinked.asOf > asOf).toBe(true);
  });

  it("never shows one RW's RTs or their kept figures to another RW", async () => {
    const a = await rwWithRt();
    await complaint(a.warga.token, "Lampu taman mati");
    expect((await summary(a.head.token)).body.total.complaintsOpen).toBe(1);
    expect(await keptRow(a.rt)).toBeDefined();

    const other = await createTenant({ type: "RW", slug: unique("rw") });
    const otherHead = await other.member("admin");
    const res = await summary(otherHead.token);
    expect(res.body.children).toEqual([]);
    expect(res.body.total).toEqual(noFigures);
    // Nor can the other RW unlink it, or an RT's admin read any summary.
    expectProblem(
      await callJson(`/api/tenant-hierarchy/link-child/${a.rt.slug}`, {
        method: "DELETE",
        token: otherHead.token,
      }),
      404,
      "not_found",
    );
    const rtAdmin = await a.rt.member("admin");
    expectProblem(await summary(rtAdmin.token), 403, "not_rw_tenant");
  });
});
