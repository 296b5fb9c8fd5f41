import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { memberships } from "../../../src/core/db/identity-schema";
import { platformDb } from "../../../src/core/db/platform";
import { tenants } from "../../../src/core/db/platform-schema";
import { newId } from "../../../src/core/ids";
import { tanggalIndonesia } from "../../../src/modules/surat/dates";
import { validUntilOf } from "../../../src/modules/surat/kept";
import { letterVerifications } from "../../../src/modules/surat/platform-tables";
import { pdfRendering } from "../../../src/platform/pdf";
import { jakartaTime, setNow } from "../../helpers/clock";
import { withTrigger } from "../../helpers/d1";
import { bindings, call, callJson, createTenant, expectProblem, PASSWORD } from "../../helpers/harness";
import { finishedLetter, newTenantHousehold, request, sampleFields } from "../surat/helpers";
import { closeSettled, runClosingJob } from "./helpers";

/** Issue 42 item 4: closing is clean. */

interface Session {
  accessToken: string;
  user: { tenant: { slug: string } | null };
}

// The final archive's handover pack prints the finished letters: a stand-in, so no browser is launched.
beforeEach(() => {
  vi.restoreAllMocks();
  vi.spyOn(pdfRendering, "create").mockImplementation(() => ({
    render: async () => new TextEncoder().encode("%PDF-1.7\n% closing test stand-in\n%%EOF\n"),
  }));
});

describe("signing in after a community closed", () => {
  it("answers 410 tenant_closed to its members, and lands a member of another community there", async () => {
    const closing = await createTenant();
    const open = await createTenant();
    const onlyHere = await closing.member("warga");
    const both = await closing.member("sekretaris");
    await platformDb(bindings)
      .insert(memberships)
      .values({ id: newId(), userId: both.id, tenantId: open.id, roles: ["bendahara"] });
    // Someone of the open community alone, asking for the closed one: never a member there.
    const stranger = await open.member("warga");
    expect((await closeSettled(closing.id, closing.slug)).status).toBe(202);

    const login = (email: string, tenant?: string) =>
      callJson<Session>("/api/auth/login", { body: { email, password: PASSWORD, tenant } });
    expectProblem(await login(onlyHere.email), 410, "tenant_closed");
    expectProblem(await login(onlyHere.email, closing.slug), 410, "tenant_closed");
    expectProblem(await login(both.email, closing.slug), 410, "tenant_closed");
    // Wrong tenant: not theirs, closed or not, is still 403 no_membership.
    expectProblem(await login(stranger.email, closing.slug), 403, "no_membership");
    expectProblem(await login(onlyHere.email, open.slug), 403, "no_membership");

    const landed = await login(both.email);
    expect(landed.status).toBe(200);
    expect(landed.body.user.tenant?.slug).toBe(open.slug);
    const switched = await callJson("/api/auth/switch-tenant", {
      token: landed.body.accessToken,
      body: { tenant: closing.slug },
    });
    expectProblem(switched, 410, "tenant_closed");
    // Bad input is still 400, before any membership is looked at.
    expectProblem(await callJson("/api/auth/login", { body: { email: both.email } }), 400, "invalid_input");
  });
});

async function page(code: string, query = "") {
  const res = await call(`/verify/surat/${encodeURIComponent(code)}${query}`);
  return { status: res.status, html: await res.text(), cache: res.headers.get("Cache-Control") };
}

describe("a closed community's letters", () => {
  it("stay verifiable by QR for their validity, from a copy that holds only what the page shows", async () => {
    setNow(jakartaTime("2026-11-25"));
    const h = await newTenantHousehold();
    const done = await finishedLetter(h, "TUTUP-001/2026", "2026-11-20");
    const lapsed = await finishedLetter(h, "TUTUP-002/2026", "2025-01-10");
    const pending = await request(h.warga.token, {
      jenis: "domisili",
      onBehalfOf: "self",
      keperluan: "Belum selesai",
      fields: sampleFields("domisili"),
    });
    expect(pending.status).toBe(201);
    const other = await newTenantHousehold();
    const otherLetter = await finishedLetter(other, "LAIN-001/2026", "2026-11-20");

    const closed = await closeSettled(h.tenant.id, h.tenant.slug);
    expect(closed.status).toBe(202);
    // The slot has been wiped and returned: the page can only be reading the platform's copy.
    const [closedRow] = await platformDb(bindings).select().from(tenants).where(eq(tenants.id, h.tenant.id));
    expect(closedRow).toMatchObject({ status: "ditutup", slot: null });
    const res = await page(done.verificationCode ?? "");
    expect(res.status).toBe(200);
    expect(res.cache).toBe("no-store");
    expect(res.html).toContain('<html lang="id">');
    expect(res.html).toContain("TUTUP-001/2026");
    expect(res.html).toContain("Budi Santoso");
    expect(res.html).toContain("Ketua RT 001: Bambang Sutrisno");
    expect(res.html).toContain("20 November 2026");
    const until = validUntilOf({ jenis: "domisili", tanggalSurat: "2026-11-20" }) ?? "";
    expect(res.html).toContain(`sudah ditutup dan tidak lagi memakai layanan ini`);
    expect(res.html).toContain(tanggalIndonesia(until));
    expect(res.html).not.toContain("Belum selesai");
    const english = await page(done.verificationCode ?? "", "?lang=en");
    expect(english.html).toContain("has closed and no longer uses this service");

    // Only what the page shows is kept: no NIK, address, purpose or fields.
    const kept = await platformDb(bindings)
      .select()
      .from(letterVerifications)
      .where(eq(letterVerifications.tenantId, h.tenant.id));
    expect(kept).toHaveLength(1);
    expect(Object.keys(kept[0] ?? {}).sort()).toEqual(
      [
        "codeHash",
        "jenisName",
        "keptAt",
        "letterId",
        "nomorSurat",
        "rwDay",
        "rwName",
        "rwStatus",
        "rwTitle",
        "signatoryName",
        "signatoryTitle",
        "subjectName",
        "tanggalSurat",
        "tenantId",
        "tenantName",
        "validUntil",
      ].sort(),
    );
    expect(kept[0]?.codeHash).not.toBe(done.verificationCode);
    expect(JSON.stringify(kept)).not.toContain(done.verificationCode ?? "-");

    // A letter already past its validity at the close is not vouched for; guesses and another
    // community's code under the closed slug are unknown; a malformed code is a 404 page, not a 500.
    expect((await page(lapsed.verificationCode ?? "")).status).toBe(404);
    const random = (otherLetter.verificationCode ?? "").split(".")[1];
    for (const code of [
      `${h.tenant.slug}.${random}`,
      `${h.tenant.slug}.AAAAAAAAAAAAAAAAAAAAAA`,
      "%%%",
      "x",
    ]) {
      const unknown = await page(code);
      expect(unknown.status, code).toBe(404);
      expect(unknown.html).toContain("Surat tidak ditemukan");
    }
    // The other, open community's letter still answers from its own database.
    expect((await page(otherLetter.verificationCode ?? "")).html).not.toContain("sudah ditutup");

    // Past its validity the page stops vouching for it, and the hourly job drops the copy.
    const after = new Date(`${until}T00:00:00Z`);
    after.setUTCDate(after.getUTCDate() + 2);
    setNow(after);
    expect((await page(done.verificationCode ?? "")).status).toBe(404);
    await runClosingJob(after);
    const left = await platformDb(bindings)
      .select()
      .from(letterVerifications)
      .where(eq(letterVerifications.tenantId, h.tenant.id));
    expect(left).toEqual([]);
  });

  it("never wipes the slot before the copy is made: a failed copy leaves it to the hourly job", async () => {
    setNow(jakartaTime("2026-11-25"));
    const h = await newTenantHousehold();
    const done = await finishedLetter(h, "GAGAL-001/2026", "2026-11-20");
    const closed = await withTrigger(
      bindings.PLATFORM_DB,
      "fail_letter_copy",
      `BEFORE INSERT ON letter_verifications
         WHEN NEW.tenant_id = '${h.tenant.id}'
         BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      () => closeSettled(h.tenant.id, h.tenant.slug),
    );
    expect(closed.status).toBe(202);
    const [held] = await platformDb(bindings).select().from(tenants).where(eq(tenants.id, h.tenant.id));
    expect(held?.slot).toBe(h.tenant.slot);
    expect((await page(done.verificationCode ?? "")).status).toBe(404);

    await runClosingJob(new Date(Date.now() + 2 * 60 * 60 * 1000));
    const [released] = await platformDb(bindings).select().from(tenants).where(eq(tenants.id, h.tenant.id));
    expect(released?.slot).toBeNull();
    const res = await page(done.verificationCode ?? "");
    expect(res.status).toBe(200);
    expect(res.html).toContain("GAGAL-001/2026");
  });
});
