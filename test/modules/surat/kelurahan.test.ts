import { describe, expect, it } from "vitest";
import { escapeHtml } from "../../../src/core/html";
import { personById, unitsByIds } from "../../../src/modules/kependudukan/service";
import { IDENTITY_FIELDS, IDENTITY_LABELS, JENIS } from "../../../src/modules/surat/jenis";
import { letterDocumentHtml } from "../../../src/modules/surat/publish";
import { createLetter, loadLetter } from "../../../src/modules/surat/service";
import { updateLetter } from "../../../src/modules/surat/workflow";
import { memberCtx } from "../../helpers/contexts";
import { callJson, createTenant, ENGLISH, expectProblem } from "../../helpers/harness";
import {
  household,
  type LetterBody,
  newTenantHousehold,
  nik,
  request,
  sampleFields,
  settledRw,
  update,
} from "./helpers";

/** Issue 29, items 1–3: the identity block per type, the letterhead chain, the signatory, complete settings. */

const cell = (label: string, value: string) =>
  `<td class="l">${escapeHtml(label)}</td><td class="c">:</td><td>${escapeHtml(value)}</td>`;

describe("the letter a kelurahan accepts", () => {
  it("prints, for each of the 12 types, every particular it declares (and no other), its own fields, the letterhead chain and the signatory", async () => {
    const h = await newTenantHousehold();
    const warga = await memberCtx(h.tenant.slug, h.warga, "warga");
    const sek = await memberCtx(h.tenant.slug, h.sek, "sekretaris");
    const head = await personById({ ctx: sek, id: h.headMemberId });
    const unit = (await unitsByIds({ ctx: sek, ids: [h.unitId] })).get(h.unitId);
    const expected: Record<(typeof IDENTITY_FIELDS)[number], string> = {
      nama: "Budi Santoso",
      nik: head?.nik ?? "?",
      tempatTanggalLahir: "Bogor, 1 Januari 1980",
      jenisKelamin: "Laki-laki",
      agama: "Islam",
      pekerjaan: "Karyawan Swasta",
      statusPerkawinan: "Kawin",
      kewarganegaraan: "Indonesia (WNI)",
      alamat: `Blok C No. ${unit?.number}, RT 001 / RW 005, Kelurahan Sukamaju, Kecamatan Cibinong, Kabupaten Bogor`,
    };
    expect(JENIS).toHaveLength(12);
    for (const def of JENIS) {
      // The verbs directly: twelve requests from one resident would pass the daily quota.
      const made = await createLetter({
        ctx: warga,
        input: {
          jenis: def.code,
          onBehalfOf: "self",
          keperluan: "Uji kop surat",
          fields: sampleFields(def.code, h.childMemberId),
        },
      });
      await updateLetter({ ctx: sek, id: made.id, input: { status: "diproses" } });
      await updateLetter({
        ctx: sek,
        id: made.id,
        input: { status: "selesai", nomorSurat: `KOP-${def.code}`, tanggalSurat: "2026-11-20" },
      });
      const html = await letterDocumentHtml(sek, await loadLetter(sek, made.id));
      expect(def.identity.length, def.code).toBeGreaterThan(0);
      for (const name of IDENTITY_FIELDS) {
        const line = cell(IDENTITY_LABELS[name], expected[name]);
        if (def.identity.includes(name)) {
          expect(html, `${def.code} prints ${name}`).toContain(line);
        } else {
          expect(html, `${def.code} does not print ${name}`).not.toContain(line);
        }
      }
      for (const field of def.fields) {
        if (sampleFields(def.code, h.childMemberId)[field.name] !== undefined) {
          expect(html, `${def.code}.${field.name}`).toContain(
            `<td class="l">${escapeHtml(field.label)}</td>`,
          );
        }
      }
      for (const part of [
        "Pengurus RT 001 / RW 005",
        "Kelurahan Sukamaju",
        "Kecamatan Cibinong",
        "Kabupaten Bogor",
        "Provinsi Jawa Barat",
        "Jl. Sukamaju Raya No. 1",
      ]) {
        expect(html, `${def.code}: ${part}`).toContain(escapeHtml(part));
      }
      expect(html).toContain("<u>Bambang Sutrisno</u>");
      expect(html).toContain("Ketua RT 001");
      expect(html).toContain("Bogor, 20 November 2026");
      expect(html).not.toContain("Mengetahui");
      expect(html).not.toMatch(/RT ?000|RW ?000|\.\.\.\.\.\./);
    }
  });

  it("keeps the letterhead and signatory a letter was finished with when the settings change later", async () => {
    const h = await newTenantHousehold();
    const sek = await memberCtx(h.tenant.slug, h.sek, "sekretaris");
    const { body } = await request(h.warga.token, {
      jenis: "domisili",
      onBehalfOf: "self",
      keperluan: "Uji kop tetap",
      fields: sampleFields("domisili"),
    });
    await update(h.sek.token, body.id, { status: "diproses" });
    await update(h.sek.token, body.id, {
      status: "selesai",
      nomorSurat: "TETAP-1",
      tanggalSurat: "2026-11-20",
    });
    await callJson("/api/surat/settings", {
      method: "PUT",
      token: h.admin.token,
      body: { headName: "Ketua Baru", kelurahan: "Sukamundur" },
    });
    const html = await letterDocumentHtml(sek, await loadLetter(sek, body.id));
    expect(html).toContain("Bambang Sutrisno");
    expect(html).toContain("Kelurahan Sukamaju");
    expect(html).not.toContain("Ketua Baru");
  });
});

describe("registry record required", () => {
  it("refuses a request whose subject's registry person lacks what the type prints (409 registry_record_required), saying what to enter", async () => {
    const h = await newTenantHousehold();
    const bare = await callJson<{ members: { id: string; name: string }[] }>(
      `/api/kependudukan/kk/${h.kkId}/members`,
      {
        token: h.sek.token,
        body: { name: "Sari Santoso", nik: nik("450190"), relationship: "istri", sex: "P" },
      },
    );
    expect(bare.status).toBe(201);
    const sariId = bare.body.members.find((m) => m.name === "Sari Santoso")?.id ?? "";
    // In English the detail names what to enter (the default, Indonesian, says the code's sentence).
    const refused = await request(
      h.warga.token,
      { jenis: "belum_menikah", onBehalfOf: sariId, keperluan: "Persyaratan kerja", fields: {} },
      ENGLISH,
    );
    expectProblem(refused, 409, "registry_record_required");
    const problem = refused.body as unknown as { detail: string; errors: { field: string }[] };
    expect(problem.detail).toContain("Agama");
    expect(problem.detail).toContain("secretariat");
    expect(problem.errors.map((e) => e.field).sort()).toEqual(
      ["birthDate", "birthPlace", "maritalStatus", "occupation", "religion"].sort(),
    );
    // A type that prints fewer particulars asks for fewer.
    const lost = await request(h.warga.token, {
      jenis: "kehilangan",
      onBehalfOf: sariId,
      keperluan: "Laporan kehilangan",
      fields: sampleFields("kehilangan"),
    });
    expectProblem(lost, 409, "registry_record_required");
    expect(
      (lost.body as unknown as { errors: { field: string }[] }).errors.map((e) => e.field).sort(),
    ).toEqual(["birthDate", "birthPlace", "occupation"]);
    const filled = await callJson(`/api/kependudukan/kk/${h.kkId}/members/${sariId}`, {
      method: "PUT",
      token: h.sek.token,
      body: {
        birthDate: "1990-01-05",
        birthPlace: "Cianjur",
        religion: "islam",
        occupation: "Wiraswasta",
        maritalStatus: "belum_kawin",
      },
    });
    expect(filled.status).toBe(200);
    const ok = await request(h.warga.token, {
      jenis: "belum_menikah",
      onBehalfOf: sariId,
      keperluan: "Persyaratan kerja",
      fields: {},
    });
    expect(ok.status).toBe(201);
  });
});

describe("letter settings complete before use", () => {
  it("lists what is missing, refuses numbering and finishing with 409 letter_settings_incomplete naming it, never a zero", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const sek = await tenant.member("sekretaris");
    const h = await household(tenant, { sek, admin });
    // Empty the letterhead household() filled, as a new community has it.
    await callJson("/api/surat/settings", {
      method: "PUT",
      token: admin.token,
      body: {
        rt: null,
        rw: null,
        kelurahan: null,
        kecamatan: null,
        kota: null,
        provinsi: null,
        headName: null,
      },
    });
    const settings = await callJson<{ missing: string[]; headName: string | null; headTitle: string }>(
      "/api/surat/settings",
      { token: sek.token },
    );
    expect(settings.status).toBe(200);
    // The signatory defaults to the member holding admin: never missing while the community has one.
    expect(settings.body.missing).toEqual(["rt", "rw", "kelurahan", "kecamatan", "kota", "provinsi"]);
    expect(settings.body.headName).toBeTruthy();

    const next = await callJson<{ errors: { field: string }[]; detail: string }>(
      "/api/surat/next-number?jenis=domisili&tanggal=2026-11-20",
      { token: sek.token, headers: ENGLISH },
    );
    expectProblem(next, 409, "letter_settings_incomplete");
    expect(next.body.errors.map((e) => e.field)).toEqual(settings.body.missing);
    expect(next.body.detail).toContain("kecamatan");

    const { body } = await request(h.warga.token, {
      jenis: "domisili",
      onBehalfOf: "self",
      keperluan: "Uji pengaturan",
      fields: sampleFields("domisili"),
    });
    await update(sek.token, body.id, { status: "diproses" });
    expectProblem(
      await update(sek.token, body.id, { status: "selesai", nomorSurat: "X-1", tanggalSurat: "2026-11-20" }),
      409,
      "letter_settings_incomplete",
    );
    expect((await callJson<LetterBody>(`/api/surat/${body.id}`, { token: sek.token })).body.status).toBe(
      "diproses",
    );

    await callJson("/api/surat/settings", {
      method: "PUT",
      token: admin.token,
      body: { rt: "2", rw: "5", kelurahan: "Sukamaju", kecamatan: "Cibinong", kota: "Kabupaten Bogor" },
    });
    const almost = await callJson<{ missing: string[] }>("/api/surat/settings", { token: sek.token });
    expect(almost.body.missing).toEqual(["provinsi"]);
    expectProblem(
      await callJson("/api/surat/next-number?jenis=domisili&tanggal=2026-11-20", { token: sek.token }),
      409,
      "letter_settings_incomplete",
    );
    await callJson("/api/surat/settings", {
      method: "PUT",
      token: admin.token,
      body: { provinsi: "Jawa Barat" },
    });
    const numbered = await callJson<{ nomorSurat: string }>(
      "/api/surat/next-number?jenis=domisili&tanggal=2026-11-20",
      { token: sek.token },
    );
    expect(numbered.body.nomorSurat).toBe("001/SKD/RT002.RW005/XI/2026");
    const done = await update(sek.token, body.id, {
      status: "selesai",
      nomorSurat: numbered.body.nomorSurat,
      tanggalSurat: "2026-11-20",
    });
    expect(done.status).toBe(200);
  });

  it("numbers an RW's letters without an RT number", async () => {
    const { admin } = await settledRw();
    const s = await callJson<{ missing: string[]; headTitle: string }>("/api/surat/settings", {
      token: admin.token,
    });
    expect(s.body).toMatchObject({ missing: [], headTitle: "Ketua RW 005" });
    const next = await callJson<{ nomorSurat: string }>(
      "/api/surat/next-number?jenis=usaha&tanggal=2026-11-20",
      { token: admin.token },
    );
    expect(next.body.nomorSurat).toBe("001/SKU/RW005/XI/2026");
  });
});
