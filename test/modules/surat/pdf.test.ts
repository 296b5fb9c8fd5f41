import { env } from "cloudflare:workers";
import { afterEach, describe, expect, inject, it, vi } from "vitest";
import { browserRenderer, pdfRendering } from "../../../src/modules/surat/pdf";
import { call, callJson, ENGLISH, expectProblem, operatorToken } from "../../helpers/harness";
import { ackingHousehold, finishedLetter, newTenantHousehold, request, settledRw, update } from "./helpers";
import { pdfText } from "./pdfText";

/**
 * A real Chromium launch per render: seconds each, and more on a shared machine. The tests that render
 * get this much time; nothing in them measures it.
 */
const RENDERING = { timeout: 90_000 };
// Rendering launches Chromium through Browser Rendering's local mode; test/vitest.config.ts says if it is there.
const chromium = inject("chromium");

const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());
const head = (bytes: Uint8Array) => String.fromCharCode(...bytes.slice(0, 5));

afterEach(() => {
  vi.restoreAllMocks();
});

describe("letter PDF", () => {
  it("is not offered before selesai with a number (409 letter_not_ready)", async () => {
    const h = await newTenantHousehold();
    const { body } = await request(h.warga.token, {
      jenis: "belum_menikah",
      onBehalfOf: "self",
      keperluan: "Persyaratan kerja",
      fields: {},
    });
    expectProblem(
      await callJson(`/api/surat/${body.id}/pdf`, { token: h.warga.token }),
      409,
      "letter_not_ready",
    );
    await update(h.sek.token, body.id, { status: "diproses", nomorSurat: "P-0", tanggalSurat: "2026-11-20" });
    expectProblem(
      await callJson(`/api/surat/${body.id}/pdf`, { token: h.sek.token }),
      409,
      "letter_not_ready",
    );
  });

  it(
    "renders a real A4 PDF holding the letter number, stores it in R2 and serves it from there",
    RENDERING,
    async (t) => {
      t.skip(!chromium.ready, chromium.reason);
      const h = await newTenantHousehold();
      await callJson("/api/surat/settings", {
        method: "PUT",
        token: h.admin.token,
        body: {
          rt: "3",
          rw: "5",
          kota: "Bandung",
          headName: "H. Slamet Riyadi",
          address: "Jl. Sukamaju Raya",
        },
      });
      const done = await finishedLetter(h, "001/SKD/RT003.RW005/XI/2026");
      const first = await call(`/api/surat/${done.id}/pdf`, { token: h.warga.token });
      expect(first.status).toBe(200);
      expect(first.headers.get("Content-Type")).toBe("application/pdf");
      expect(first.headers.get("X-Pdf-Source")).toBe("render");
      const pdf = await bytesOf(first);
      expect(head(pdf)).toBe("%PDF-");
      const text = await pdfText(pdf);
      expect(text).toContain("001/SKD/RT003.RW005/XI/2026");
      expect(text).toContain("SURAT KETERANGAN DOMISILI");
      expect(text).toContain("H. Slamet Riyadi");
      expect(String.fromCharCode(...pdf)).toMatch(/\/MediaBox \[0 0 59\d\.\d+ 84\d\.\d+\]/);

      const key = `tenants/${h.tenant.slug}/surat/${done.id}/v${done.pdfVersion}.pdf`;
      const stored = await env.FILES.get(key);
      expect(stored?.httpMetadata?.contentType).toBe("application/pdf");
      // Replace the stored object: if the second answer is this, it came from R2 and not a new render.
      await env.FILES.put(key, "%PDF-1.4 stored copy", { httpMetadata: { contentType: "application/pdf" } });
      const second = await call(`/api/surat/${done.id}/pdf`, { token: h.sek.token });
      expect(second.headers.get("X-Pdf-Source")).toBe("r2");
      expect(await second.text()).toBe("%PDF-1.4 stored copy");

      // A corrected number is a new version: rendered again, under a new key.
      const fixed = await update(h.sek.token, done.id, { nomorSurat: "002/SKD/RT003.RW005/XI/2026" });
      const third = await call(`/api/surat/${done.id}/pdf`, { token: h.warga.token });
      expect(third.headers.get("X-Pdf-Source")).toBe("render");
      expect(await pdfText(await bytesOf(third))).toContain("002/SKD/RT003.RW005/XI/2026");
      expect(
        await env.FILES.head(`tenants/${h.tenant.slug}/surat/${done.id}/v${fixed.body.pdfVersion}.pdf`),
      ).not.toBeNull();
    },
  );

  it("prints a household member's particulars when the letter is for them", RENDERING, async (t) => {
    t.skip(!chromium.ready, chromium.reason);
    const h = await newTenantHousehold();
    const { body } = await request(h.warga.token, {
      jenis: "belum_menikah",
      onBehalfOf: h.childMemberId,
      keperluan: "Persyaratan kerja",
      fields: {},
    });
    await update(h.sek.token, body.id, { status: "diproses" });
    await update(h.sek.token, body.id, { status: "selesai", nomorSurat: "BM-1", tanggalSurat: "2026-11-20" });
    const res = await call(`/api/surat/${body.id}/pdf`, { token: h.warga.token });
    const text = await pdfText(await bytesOf(res));
    expect(text).toContain("Rina Santoso");
    expect(text).toContain("Bandung, 4 Maret 2012");
  });

  it(
    "prints the letterhead chain, the identity block, the signatory and, once the RW acknowledges, its Mengetahui on a new version",
    RENDERING,
    async (t) => {
      t.skip(!chromium.ready, chromium.reason);
      const { tenant: rw, admin: rwAdmin } = await settledRw({ headName: "Hendra Gunawan" });
      const h = await ackingHousehold(rw.slug);
      const { body } = await request(h.warga.token, {
        jenis: "pengantar_skck",
        onBehalfOf: "self",
        keperluan: "Melamar pekerjaan",
        fields: { alasan: "Persyaratan melamar kerja" },
      });
      await update(h.sek.token, body.id, { status: "diproses" });
      await update(h.sek.token, body.id, {
        status: "selesai",
        nomorSurat: "001/SP-SKCK/RT001.RW005/XI/2026",
        tanggalSurat: "2026-11-20",
      });
      // Before the RW acknowledges, the PDF is the RT's staff's only (the resident's answer is 409
      // awaiting_rw_acknowledgement, issue 45; tested in rw-acknowledgement.test.ts).
      const first = (
        await pdfText(await bytesOf(await call(`/api/surat/${body.id}/pdf`, { token: h.sek.token })))
      ).toUpperCase();
      for (const part of [
        "RT 001 / RW 005",
        "KELURAHAN SUKAMAJU",
        "KECAMATAN CIBINONG",
        "KABUPATEN BOGOR",
        "PROVINSI JAWA BARAT",
        "BUDI SANTOSO",
        "ISLAM",
        "KARYAWAN SWASTA",
        "KAWIN",
        "INDONESIA (WNI)",
        "BAMBANG SUTRISNO",
        "KETUA RT 001",
      ]) {
        expect(first, part).toContain(part);
      }
      expect(first).not.toContain("MENGETAHUI");
      const acked = await callJson(`/api/surat/rw-acknowledgements/${body.id}`, {
        token: rwAdmin.token,
        body: {},
      });
      expect(acked.status).toBe(200);
      const second = await call(`/api/surat/${body.id}/pdf`, { token: h.warga.token });
      expect(second.headers.get("X-Pdf-Source")).toBe("render");
      const text = (await pdfText(await bytesOf(second))).toUpperCase();
      expect(text).toContain("MENGETAHUI");
      expect(text).toContain("KETUA RW 005");
      expect(text).toContain("HENDRA GUNAWAN");
      expect(text).toContain("BAMBANG SUTRISNO");
    },
  );

  it("is the bendahara's as every staff duty's (spec: R, S): the letter list, its PDF and its status", async () => {
    const h = await newTenantHousehold();
    const bendahara = await h.tenant.member("bendahara");
    const { body } = await request(h.warga.token, {
      jenis: "belum_menikah",
      onBehalfOf: "self",
      keperluan: "Persyaratan kerja",
      fields: {},
    });
    const list = await callJson<{ items: { id: string }[] }>("/api/surat", { token: bendahara.token });
    expect(list.status).toBe(200);
    expect(list.body.items.map((l) => l.id)).toContain(body.id);
    // The verb's own check knows the bendahara as letter staff: not ready (409), never "not found" (404).
    expectProblem(
      await callJson(`/api/surat/${body.id}/pdf`, { token: bendahara.token }),
      409,
      "letter_not_ready",
    );
    const changed = await update(bendahara.token, body.id, { status: "diproses" });
    expect(changed.status).toBe(200);

    const done = await finishedLetter(h, "B-1");
    const key = `tenants/${h.tenant.slug}/surat/${done.id}/v${done.pdfVersion}.pdf`;
    await env.FILES.put(key, "%PDF-1.4 stored copy", { httpMetadata: { contentType: "application/pdf" } });
    const pdf = await call(`/api/surat/${done.id}/pdf`, { token: bendahara.token });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("Content-Type")).toBe("application/pdf");
    expect(await pdf.text()).toBe("%PDF-1.4 stored copy");
  });

  it("answers 503 pdf_renderer_unavailable, saying how to enable it, when the browser cannot launch", async () => {
    const h = await newTenantHousehold();
    const done = await finishedLetter(h, "Q-1");
    const noChrome = { fetch: async () => new Response("Chrome is not installed", { status: 500 }) };
    vi.spyOn(pdfRendering, "create").mockImplementation(() => browserRenderer(noChrome as never));
    const res = await callJson<{ detail: string }>(`/api/surat/${done.id}/pdf`, {
      token: h.warga.token,
      headers: ENGLISH,
    });
    expectProblem(res, 503, "pdf_renderer_unavailable");
    expect(res.body.detail).toContain("apt-get install chromium");
    expect(
      await env.FILES.head(`tenants/${h.tenant.slug}/surat/${done.id}/v${done.pdfVersion}.pdf`),
    ).toBeNull();
  });
});

describe("verification page", () => {
  it("confirms a valid letter's number, type, date and tenant, with no personal data beyond the name", async () => {
    const h = await newTenantHousehold();
    const done = await finishedLetter(h, "V-001/2026");
    expect(done.verificationUrl).toContain(`/verify/surat/${done.verificationCode}`);
    const res = await call(`/verify/surat/${done.verificationCode}`, {
      headers: { "Accept-Language": "id" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("text/html");
    const page = await res.text();
    expect(page).toContain("V-001/2026");
    expect(page).toContain("Surat Keterangan Domisili");
    expect(page).toContain("20 November 2026");
    expect(page).toContain("RT Uji");
    expect(page).toContain("sah");
    // The name of the registry person the account is linked to (a letter "for myself").
    expect(page).toContain("Budi Santoso");
    // The signatory the letter was finished with (helpers.ts FULL_SETTINGS); no RW asked (not linked).
    expect(page).toContain("Ketua RT 001: Bambang Sutrisno");
    expect(page).not.toContain("Mengetahui");
    expect(page).not.toContain("Melamar pekerjaan");
    expect(page).not.toContain("<script");
  });

  it("says not found for an unknown code, a guessed code of a real tenant, or a letter not finished", async () => {
    const h = await newTenantHousehold();
    const done = await finishedLetter(h, "V-002/2026");
    for (const code of [
      "nothing-here",
      `${h.tenant.slug}.AAAAAAAAAAAAAAAAAAAAAA`,
      `no-such-tenant.${done.verificationCode}`,
    ]) {
      const res = await call(`/verify/surat/${encodeURIComponent(code)}`, {
        headers: { "Accept-Language": "id" },
      });
      expect(res.status, code).toBe(404);
      expect(await res.text()).toContain("tidak ditemukan");
    }
  });

  it("stays valid when the community switches surat off later, and is refused while it is suspended", async () => {
    const h = await newTenantHousehold();
    const done = await finishedLetter(h, "V-003/2026");
    const patch = async (body: Record<string, unknown>) =>
      expect(
        (
          await callJson(`/api/platform/tenants/${h.tenant.id}`, {
            method: "PATCH",
            token: await operatorToken(),
            body,
          })
        ).status,
      ).toBeLessThan(300);
    await patch({ flags: { surat: false } });
    expectProblem(await callJson(`/api/surat/${done.id}`, { token: h.sek.token }), 403, "feature_disabled");
    const stillValid = await call(`/verify/surat/${done.verificationCode}`);
    expect(stillValid.status).toBe(200);
    expect(await stillValid.text()).toContain("V-003/2026");

    await patch({ status: "suspended" });
    const suspended = await call(`/verify/surat/${done.verificationCode}`);
    expect(suspended.status).toBe(403);
    expect(await suspended.text()).not.toContain("V-003/2026");
  });
});
