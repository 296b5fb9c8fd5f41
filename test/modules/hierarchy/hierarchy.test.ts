import { beforeAll, describe, expect, it } from "vitest";
import { MAX_AGE_MS } from "../../../src/modules/hierarchy/figures";
import { setNow } from "../../helpers/clock";
import { tenantD1 } from "../../helpers/d1";
import {
  callJson,
  createTenant,
  expectProblem,
  type Member,
  operatorToken,
  setTenantFlags,
  setTenantStatus,
  type TestTenant,
  unique,
} from "../../helpers/harness";
import { household, request, sampleFields } from "../surat/helpers";
import { answer, askLink, complaint, linkAccepted, noFigures, type Summary } from "./helpers";

/**
 * Issue 13, "RW hierarchy": linking RTs to an RW and the RW head's summary of counts. Since issue 27 an
 * RW's link-child is a request the RT's admin accepts (consent.test.ts walks the consent itself).
 */

interface Child {
  slug: string;
  name: string;
  linkedAt: string;
}
interface Pending {
  slug: string;
  name: string;
  requestedAt: string;
  status: "menunggu";
}

const unlink = (token: string, slug: string) =>
  callJson(`/api/tenant-hierarchy/link-child/${slug}`, { method: "DELETE", token });
const children = (token: string) =>
  callJson<{ items: Child[]; pending: Pending[] }>("/api/tenant-hierarchy/children", { token });
const summary = (token: string) => callJson<Summary>("/api/tenant-hierarchy/summary", { token });

async function rw(): Promise<{ tenant: TestTenant; admin: Member }> {
  const tenant = await createTenant({ type: "RW", slug: unique("rw") });
  return { tenant, admin: await tenant.member("admin") };
}

describe("linking RTs to an RW", () => {
  it("asks an RT by slug (202 menunggu, again 202), links it once the RT accepts (then 200), lists and unlinks it", async () => {
    const { admin } = await rw();
    const rt = await createTenant();
    const rtAdmin = await rt.member("admin");
    const first = await askLink(admin.token, rt.slug);
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ child: { slug: rt.slug, name: "RT Uji" }, status: "menunggu" });
    expect((await askLink(admin.token, rt.slug)).body).toEqual(first.body);
    const waiting = await children(admin.token);
    expect(waiting.body.items).toEqual([]);
    expect(waiting.body.pending).toEqual([
      { slug: rt.slug, name: "RT Uji", requestedAt: expect.any(String), status: "menunggu" },
    ]);

    const accepted = await answer(rtAdmin.token, "accept");
    expect(accepted.status).toBe(200);
    const again = await askLink(admin.token, rt.slug);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: "disetujui" });
    const listed = await children(admin.token);
    expect(listed.body).toEqual({
      items: [{ slug: rt.slug, name: "RT Uji", linkedAt: expect.any(String) }],
      pending: [],
    });

    const gone = await unlink(admin.token, rt.slug);
    expect(gone.status).toBe(204);
    expect((await children(admin.token)).body.items).toEqual([]);
    expectProblem(await unlink(admin.token, rt.slug), 404, "not_found");
  });

  it("refuses an unknown slug (404), itself or another RW (400), and an RT linked elsewhere (409)", async () => {
    const a = await rw();
    const b = await rw();
    const rt = await createTenant();
    expectProblem(await askLink(a.admin.token, unique("rt-tidak-ada")), 404, "not_found");
    expectProblem(await askLink(a.admin.token, a.tenant.slug), 400, "invalid_child");
    expectProblem(await askLink(a.admin.token, b.tenant.slug), 400, "invalid_child");
    await linkAccepted(b.admin.token, rt);
    expectProblem(await askLink(a.admin.token, rt.slug), 409, "already_linked");
    // Nor can A unlink B's RT: it is not A's.
    expectProblem(await unlink(a.admin.token, rt.slug), 404, "not_found");
    expect((await children(b.admin.token)).body.items.map((c) => c.slug)).toEqual([rt.slug]);
  });

  it("lets only one of two RWs asking the same RT at once through", async () => {
    const a = await rw();
    const b = await rw();
    const rt = await createTenant();
    const answers = await Promise.all([askLink(a.admin.token, rt.slug), askLink(b.admin.token, rt.slug)]);
    expect(answers.map((r) => r.status).sort()).toEqual([202, 409]);
    expect(answers.map((r) => (r.body as { code?: string }).code).filter(Boolean)).toEqual([
      "link_request_pending",
    ]);
    const lists = await Promise.all([children(a.admin.token), children(b.admin.token)]);
    expect(lists.flatMap((l) => l.body.pending.map((c) => c.slug))).toEqual([rt.slug]);
    expect(lists.flatMap((l) => l.body.items)).toEqual([]);
  });

  it("is the RW head's: an RT's admin gets 403, the RW's secretary too", async () => {
    const rt = await createTenant();
    const rtAdmin = await rt.member("admin");
    const other = await createTenant();
    expectProblem(await askLink(rtAdmin.token, other.slug), 403, "not_rw_tenant");
    expectProblem(await children(rtAdmin.token), 403, "not_rw_tenant");
    expectProblem(await summary(rtAdmin.token), 403, "not_rw_tenant");
    // An RT has no linked RTs, so any slug is not its to unlink.
    expectProblem(await unlink(rtAdmin.token, other.slug), 404, "not_found");
    const { tenant } = await rw();
    const sek = await tenant.member("sekretaris");
    expectProblem(await children(sek.token), 403, "forbidden_role");
  });
});

describe("the operator sets or clears a tenant's parent", () => {
  it("through PATCH /api/platform/tenants/:id, checked like creation", async () => {
    const operator = await operatorToken();
    const { tenant, admin } = await rw();
    const rt = await createTenant();
    const patch = (id: string, body: unknown) =>
      callJson<{ parentId: string | null; linkedAt: string | null }>(`/api/platform/tenants/${id}`, {
        method: "PATCH",
        token: operator,
        body,
      });
    const set = await patch(rt.id, { parentSlug: tenant.slug });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ parentId: tenant.id, linkedAt: expect.any(String) });
    expect((await children(admin.token)).body.items.map((c) => c.slug)).toEqual([rt.slug]);

    const cleared = await patch(rt.id, { parentSlug: null });
    expect(cleared.body).toMatchObject({ parentId: null, linkedAt: null });
    expect((await children(admin.token)).body.items).toEqual([]);

    const otherRt = await createTenant();
    expectProblem(await patch(rt.id, { parentSlug: otherRt.slug }), 400, "invalid_parent");
    expectProblem(await patch(tenant.id, { parentSlug: tenant.slug }), 400, "invalid_parent");
  });
});

describe("the RW summary", () => {
  let head: Member;
  let rwSlug: string;
  let busy: TestTenant;
  let quiet: TestTenant;
  let residentEmail: string;
  let busyStaff: Member;
  let billed: number;

  beforeAll(async () => {
    const parent = await rw();
    head = parent.admin;
    rwSlug = parent.tenant.slug;
    busy = await createTenant({ parentSlug: rwSlug });
    quiet = await createTenant({ parentSlug: rwSlug });
    // busy: two residents (one in a household), two letters waiting, one finished complaint and two open.
    const h = await household(busy);
    residentEmail = h.warga.email;
    busyStaff = h.sek;
    // January's dues billed and unpaid: arrears per unit billed.
    const bendahara = await busy.member("bendahara");
    const type = await callJson("/api/iuran/jenis", {
      token: bendahara.token,
      body: { name: "Iuran kebersihan", amount: 25_000, basis: "unit", startPeriod: "2026-01" },
    });
    expect(type.status).toBe(201);
    const bills = await callJson<{ created: number }>("/api/iuran/tagihan/generate", {
      token: bendahara.token,
      body: { period: "2026-01" },
    });
    expect(bills.status).toBe(200);
    billed = bills.body.created;
    expect(billed).toBeGreaterThan(0);
    await busy.member("warga");
    for (const keperluan of ["Melamar pekerjaan", "Membuka rekening"]) {
      const letter = await request(h.warga.token, {
        jenis: "domisili",
        onBehalfOf: "self",
        keperluan,
        fields: sampleFields("domisili"),
      });
      expect(letter.status).toBe(201);
    }
    const [first] = await Promise.all([
      complaint(h.warga.token, "Lampu jalan mati"),
      complaint(h.warga.token, "Sampah menumpuk"),
      complaint(h.warga.token, "Jalan berlubang"),
    ]);
    const done = await callJson(`/api/pengaduan/${first}`, {
      method: "PUT",
      token: h.sek.token,
      body: { status: "diproses" },
    });
    expect(done.status).toBe(200);
    const closed = await callJson(`/api/pengaduan/${first}`, {
      method: "PUT",
      token: h.sek.token,
      body: { status: "selesai", response: "Sudah diganti" },
    });
    expect(closed.status).toBe(200);
    // quiet: one resident account and nobody in its registry (residents counts registry persons).
    await quiet.member("warga");
  }, 60_000);

  it("counts per RT and in total, dues arrears included, the same figures as each RT's own dashboard", async () => {
    const res = await summary(head.token);
    expect(res.status).toBe(200);
    const bySlug = new Map(res.body.children.map((c) => [c.slug, c]));
    expect(bySlug.get(busy.slug)).toEqual({
      slug: busy.slug,
      name: "RT Uji",
      figures: {
        residents: 2,
        duesArrears: { amount: 25_000 * billed, units: billed },
        lettersAwaitingProcessing: 2,
        complaintsOpen: 2,
      },
      asOf: expect.any(String),
      error: null,
    });
    expect(bySlug.get(quiet.slug)?.figures).toMatchObject({ residents: 0, complaintsOpen: 0 });
    expect(res.body.total).toEqual({
      residents: 2,
      duesArrears: { amount: 25_000 * billed, units: billed },
      lettersAwaitingProcessing: 2,
      complaintsOpen: 2,
    });
    // Read in one batch per RT, the figures are the ones the RT's own dashboard computes one by one.
    const dashboard = await callJson<{ indicators: { key: string; value: number }[] }>(
      "/api/statistik/operasional",
      { token: busyStaff.token },
    );
    const own = Object.fromEntries(dashboard.body.indicators.map((i) => [i.key, i.value]));
    expect(own).toMatchObject({
      totalResidents: 2,
      duesArrears: 25_000 * billed,
      duesArrearsUnits: billed,
      lettersAwaitingProcessing: 2,
      openComplaints: 2,
    });
    // Counts only: no resident, letter or complaint of a child is in the answer.
    const text = JSON.stringify(res.body);
    for (const personal of [residentEmail, "Lampu jalan mati", "Melamar pekerjaan", "Budi Santoso"]) {
      expect(text).not.toContain(personal);
    }
  });

  it("lists a child whose database cannot be read, or that is suspended, with an error and still answers 200", async () => {
    const db = tenantD1(quiet);
    await db.prepare("ALTER TABLE complaints RENAME TO complaints_hidden").run();
    try {
      // Past the kept figures' maximum age, so the summary reads every RT again (ADR 0038).
      setNow(new Date(Date.now() + MAX_AGE_MS + 60_000));
      const res = await summary(head.token);
      expect(res.status).toBe(200);
      const broken = res.body.children.find((c) => c.slug === quiet.slug);
      expect(broken).toMatchObject({ figures: null, error: "unreadable" });
      expect(res.body.total.residents).toBe(2);
    } finally {
      await db.prepare("ALTER TABLE complaints_hidden RENAME TO complaints").run();
    }
    await setTenantStatus(busy.slug, "suspended");
    try {
      const res = await summary(head.token);
      expect(res.body.children.find((c) => c.slug === busy.slug)).toMatchObject({
        figures: null,
        error: "tenant_suspended",
      });
      expect(res.body.total).toMatchObject({ residents: 0, lettersAwaitingProcessing: 0 });
    } finally {
      await setTenantStatus(busy.slug, "active");
    }
  });

  it("leaves out a module switched off in that RT", async () => {
    await setTenantFlags({ id: busy.id }, { surat: false });
    try {
      const res = await summary(head.token);
      expect(res.body.children.find((c) => c.slug === busy.slug)?.figures).toMatchObject({
        lettersAwaitingProcessing: 0,
        complaintsOpen: 2,
      });
    } finally {
      await setTenantFlags({ id: busy.id }, { surat: true });
    }
  });

  it("is empty for an RW without RTs", async () => {
    const { admin } = await rw();
    const res = await summary(admin.token);
    expect(res.body.children).toEqual([]);
    expect(res.body.total).toEqual(noFigures);
  });
});
