import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { memberships, users } from "../../../src/core/db/identity-schema";
import { platformDb } from "../../../src/core/db/platform";
import { JENIS } from "../../../src/modules/surat/jenis";
import { jakartaTime, setNow } from "../../helpers/clock";
import { bindings, callJson, createTenant, ENGLISH, expectProblem } from "../../helpers/harness";
import { queuedMessages } from "../../helpers/notify";
import { household, type LetterBody, newTenantHousehold, request, sampleFields, update } from "./helpers";

interface JenisBody {
  items: {
    code: string;
    name: string;
    description: string;
    validityDays: number | null;
    fields: { name: string; label: string; type: string; required: boolean; options: unknown }[];
  }[];
}

describe("letter types", () => {
  it("lists exactly the 12 types with their form schema", async () => {
    const h = await newTenantHousehold();
    const res = await callJson<JenisBody>("/api/surat/jenis", { token: h.warga.token });
    expect(res.status).toBe(200);
    expect(res.body.items.map((j) => j.code)).toEqual([
      "pengantar_ktp_kk",
      "domisili",
      "sktm",
      "tidak_mampu",
      "usaha",
      "kematian",
      "pindah",
      "kelahiran",
      "belum_menikah",
      "pengantar_skck",
      "izin_keramaian",
      "kehilangan",
    ]);
    for (const j of res.body.items) {
      expect(j.name).toBeTruthy();
      expect(j.description).toBeTruthy();
      expect(j).toHaveProperty("validityDays");
      for (const f of j.fields) {
        expect(f).toMatchObject({
          name: expect.any(String),
          label: expect.any(String),
          type: expect.any(String),
        });
        expect(typeof f.required).toBe("boolean");
        expect(f).toHaveProperty("options");
      }
    }
    const ktp = res.body.items.find((j) => j.code === "pengantar_ktp_kk");
    expect(ktp?.fields.find((f) => f.name === "dokumen")?.options).toHaveLength(4);
  });

  // A dozen accounts signed in on the way (the daily quota): more than the default time on a busy machine.
  it("validates every type's additional fields from the same definition", { timeout: 120_000 }, async () => {
    const h = await newTenantHousehold();
    // A member files at most 10 requests a day (limits.ts): the household's residents take turns, each
    // asking for the child of the house.
    let sent = 0;
    let poster = h.warga;
    const post = async (body: Record<string, unknown>) => {
      if (++sent % 9 === 0) {
        poster = await h.tenant.member("warga", {
          unitId: h.unitId,
          whatsapp: `62819${String(sent).padStart(7, "0")}`,
        });
      }
      return request(poster.token, { ...body, onBehalfOf: h.childMemberId });
    };
    for (const def of JENIS) {
      const fields = sampleFields(def.code, h.childMemberId);
      const ok = await post({
        jenis: def.code,
        onBehalfOf: "self",
        keperluan: "Keperluan uji",
        fields,
      });
      expect(ok.status, def.code).toBe(201);
      expect(ok.body.fields).toEqual(fields);
      const unknown = await post({
        jenis: def.code,
        onBehalfOf: "self",
        keperluan: "Keperluan uji",
        fields: { ...fields, tidakAda: "x" },
      });
      expectProblem(unknown, 400, "invalid_fields");
      for (const field of def.fields.filter((f) => f.required && !f.requiredUnless)) {
        const { [field.name]: _dropped, ...rest } = fields;
        const missing = await post({
          jenis: def.code,
          onBehalfOf: "self",
          keperluan: "Keperluan uji",
          fields: rest,
        });
        expectProblem(missing, 400, "invalid_fields");
        expect(
          (missing.body as unknown as { errors: { field: string }[] }).errors[0]?.field,
          `${def.code}.${field.name}`,
        ).toBe(`fields.${field.name}`);
        const wrong = await post({
          jenis: def.code,
          onBehalfOf: "self",
          keperluan: "Keperluan uji",
          fields: { ...fields, [field.name]: field.type === "members" ? "not-a-list" : { nested: true } },
        });
        expectProblem(wrong, 400, "invalid_fields");
      }
    }
  });

  it("checks options, patterns, 'required unless' and that named members are of the household", async () => {
    const h = await newTenantHousehold();
    const other = await household(h.tenant, { sek: h.sek, admin: h.admin });
    const base = { onBehalfOf: "self", keperluan: "Keperluan uji" };
    const badOption = await request(h.warga.token, {
      ...base,
      jenis: "sktm",
      fields: { ...sampleFields("sktm"), ditujukanKepada: "bank" },
    });
    expectProblem(badOption, 400, "invalid_fields");
    const badPostcode = await request(h.warga.token, {
      ...base,
      jenis: "pindah",
      fields: { ...sampleFields("pindah", h.childMemberId), kodePosTujuan: "401" },
    });
    expectProblem(badPostcode, 400, "invalid_fields");
    const { almarhumAnggotaId: _m, ...noDeceased } = sampleFields("kematian");
    expectProblem(
      await request(h.warga.token, { ...base, jenis: "kematian", fields: noDeceased }),
      400,
      "invalid_fields",
    );
    const byName = await request(h.warga.token, {
      ...base,
      jenis: "kematian",
      fields: { ...noDeceased, namaAlmarhum: "Kakek Darmo" },
    });
    expect(byName.status).toBe(201);
    const foreignMember = await request(h.warga.token, {
      ...base,
      jenis: "pindah",
      fields: sampleFields("pindah", other.childMemberId),
    });
    expectProblem(foreignMember, 404, "household_member_not_found");
  });
});

describe("requests", () => {
  it("is made for oneself or a household member, printed with that person's name", async () => {
    const h = await newTenantHousehold();
    const self = await request(h.warga.token, {
      jenis: "belum_menikah",
      onBehalfOf: "self",
      keperluan: "Persyaratan kerja",
      fields: {},
    });
    expect(self.status).toBe(201);
    // For oneself: the registry person the account is linked to (the head), not the account's name.
    expect(self.body).toMatchObject({
      status: "diajukan",
      onBehalfOf: h.headMemberId,
      subjectName: "Budi Santoso",
      pdfAvailable: false,
    });
    const child = await request(h.warga.token, {
      jenis: "belum_menikah",
      onBehalfOf: h.childMemberId,
      keperluan: "Persyaratan kerja",
      fields: {},
    });
    expect(child.status).toBe(201);
    expect(child.body.subjectName).toBe("Rina Santoso");

    // The letter desk sees who it is for as the letter prints it, from the registry (issue 46); the
    // resident reading their own request gets no such block.
    const desk = await callJson<{ subject?: { name: string; label: string; value: string }[] }>(
      `/api/surat/${child.body.id}`,
      { token: h.sek.token },
    );
    expect(desk.status).toBe(200);
    const subject = Object.fromEntries((desk.body.subject ?? []).map((p) => [p.name, p.value]));
    expect(subject).toMatchObject({ nama: "Rina Santoso", jenisKelamin: "Perempuan" });
    // Her NIK as the registry holds it (the helper's: region 320101, born 04-03-12).
    expect(subject.nik).toMatch(/^320101440312\d{4}$/);
    expect(subject.tempatTanggalLahir).toContain("Bandung");
    expect(subject.alamat).toMatch(/^Blok /);
    const own = await callJson<{ subject?: unknown }>(`/api/surat/${child.body.id}`, {
      token: h.warga.token,
    });
    expect(own.status).toBe(200);
    expect(own.body.subject).toBeUndefined();

    // Once the family has moved away, the desk still sees the letter's subject by the name it stored,
    // at the house the letter was asked from; the registry's particulars are gone with the card.
    const moved = await callJson("/api/kependudukan/mutasi", {
      token: h.sek.token,
      body: { kind: "pindah_keluar", date: "2026-03-15", familyCardId: h.kkId },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(201);
    const after = await callJson<{ subject?: { name: string; value: string }[] }>(
      `/api/surat/${child.body.id}`,
      {
        token: h.sek.token,
      },
    );
    const gone = Object.fromEntries((after.body.subject ?? []).map((p) => [p.name, p.value]));
    expect(gone).toMatchObject({ nama: "Rina Santoso", nik: "", jenisKelamin: "" });
    expect(gone.alamat).toMatch(/^Blok /);
  });

  it("refuses another household's member and an incomplete profile", async () => {
    const h = await newTenantHousehold();
    const other = await household(h.tenant, { sek: h.sek, admin: h.admin });
    const foreign = await request(h.warga.token, {
      jenis: "belum_menikah",
      onBehalfOf: other.headMemberId,
      keperluan: "Persyaratan kerja",
      fields: {},
    });
    expectProblem(foreign, 404, "household_member_not_found");
    const incomplete = await h.tenant.member("warga");
    const res = await request(incomplete.token, {
      jenis: "belum_menikah",
      onBehalfOf: "self",
      keperluan: "Persyaratan kerja",
      fields: {},
    });
    expectProblem(res, 409, "profile_incomplete");
  });

  it("keeps another resident's and another tenant's letters out of reach (404)", async () => {
    const h = await newTenantHousehold();
    const neighbour = await household(h.tenant, { sek: h.sek, admin: h.admin });
    const mine = await request(h.warga.token, {
      jenis: "belum_menikah",
      onBehalfOf: "self",
      keperluan: "Persyaratan kerja",
      fields: {},
    });
    const id = mine.body.id;
    expectProblem(await callJson(`/api/surat/${id}`, { token: neighbour.warga.token }), 404, "not_found");
    expectProblem(await callJson(`/api/surat/${id}/pdf`, { token: neighbour.warga.token }), 404, "not_found");
    expectProblem(
      await callJson(`/api/surat/${id}/cancel`, { token: neighbour.warga.token, body: {} }),
      404,
      "not_found",
    );
    const elsewhere = await newTenantHousehold();
    expectProblem(await callJson(`/api/surat/${id}`, { token: elsewhere.sek.token }), 404, "not_found");
    expectProblem(await update(elsewhere.sek.token, id, { status: "diproses" }), 404, "not_found");
    const list = await callJson<{ items: LetterBody[] }>("/api/surat/mine", { token: neighbour.warga.token });
    expect(list.body.items).toEqual([]);
  });
});

describe("letters for oneself: the account's link to its person", () => {
  const forSelf = (token: string, headers?: Record<string, string>) =>
    request(
      token,
      { jenis: "belum_menikah", onBehalfOf: "self", keperluan: "Persyaratan kerja", fields: {} },
      headers,
    );
  const linkOf = (userId: string, tenantId: string, personId: string | null) =>
    platformDb(bindings)
      .update(memberships)
      .set({ personId })
      .where(and(eq(memberships.userId, userId), eq(memberships.tenantId, tenantId)));

  it("refuses 'for myself' with 409 person_not_linked until the secretariat links the account, even for a namesake", async () => {
    const h = await newTenantHousehold();
    // Lives at the same house and bears the head's name, but the account is linked to nobody.
    const unlinked = await h.tenant.member("warga", { unitId: h.unitId, whatsapp: "6281399900001" });
    await platformDb(bindings).update(users).set({ name: "Budi Santoso" }).where(eq(users.id, unlinked.id));
    const refused = await forSelf(unlinked.token, ENGLISH);
    expectProblem(refused, 409, "person_not_linked");
    expect((refused.body as unknown as { detail: string }).detail).toContain("secretariat");
    // A household member can still be named.
    const forChild = await request(unlinked.token, {
      jenis: "belum_menikah",
      onBehalfOf: h.childMemberId,
      keperluan: "Persyaratan kerja",
      fields: {},
    });
    expect(forChild.status).toBe(201);
    // Once linked, the letter names that person.
    await linkOf(unlinked.id, h.tenant.id, h.childMemberId);
    const linked = await forSelf(unlinked.token);
    expect(linked.status).toBe(201);
    expect(linked.body).toMatchObject({ onBehalfOf: h.childMemberId, subjectName: "Rina Santoso" });
  });

  it("never takes a namesake on another card for the caller", async () => {
    const h = await newTenantHousehold();
    // Another house whose head is also Budi Santoso.
    const other = await household(h.tenant, { sek: h.sek, admin: h.admin });
    const mine = await forSelf(h.warga.token);
    const theirs = await forSelf(other.warga.token);
    expect(mine.body.onBehalfOf).toBe(h.headMemberId);
    expect(theirs.body.onBehalfOf).toBe(other.headMemberId);
    expect(h.headMemberId).not.toBe(other.headMemberId);
    const detail = await callJson<LetterBody>(`/api/surat/${mine.body.id}`, { token: h.sek.token });
    expect(detail.body.onBehalfOf).toBe(h.headMemberId);
    // Naming the namesake directly is naming another household's person.
    expectProblem(
      await request(h.warga.token, {
        jenis: "belum_menikah",
        onBehalfOf: other.headMemberId,
        keperluan: "Persyaratan kerja",
        fields: {},
      }),
      404,
      "household_member_not_found",
    );
  });

  it("never accepts another tenant's person id, named or linked", async () => {
    const h = await newTenantHousehold();
    const elsewhere = await newTenantHousehold();
    expectProblem(
      await request(h.warga.token, {
        jenis: "belum_menikah",
        onBehalfOf: elsewhere.headMemberId,
        keperluan: "Persyaratan kerja",
        fields: {},
      }),
      404,
      "household_member_not_found",
    );
    // A link that points outside this tenant's registry (never made by the API) names nobody here.
    await linkOf(h.warga.id, h.tenant.id, elsewhere.headMemberId);
    expectProblem(await forSelf(h.warga.token), 409, "person_not_linked");
  });

  it("keeps the person a letter was made for when it is resubmitted", async () => {
    const h = await newTenantHousehold();
    const created = await forSelf(h.warga.token);
    await update(h.sek.token, created.body.id, { status: "perlu_perbaikan", note: "Keperluan kurang jelas" });
    const again = await callJson<LetterBody>(`/api/surat/${created.body.id}/resubmit`, {
      token: h.warga.token,
      body: { keperluan: "Persyaratan melamar kerja" },
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ onBehalfOf: h.headMemberId, subjectName: "Budi Santoso" });
  });
});

describe("lists and the dashboard", () => {
  it("filters staff lists by status, type and date, and counts diajukan and diproses", async () => {
    const today = "2026-04-10";
    setNow(jakartaTime(today, 6)); // 06:00 WIB, still the day before in UTC
    const h = await newTenantHousehold();
    const make = (jenis: string) =>
      request(h.warga.token, {
        jenis,
        onBehalfOf: "self",
        keperluan: "Uji daftar",
        fields: sampleFields(jenis),
      });
    const a = await make("domisili");
    const b = await make("pengantar_skck");
    await make("belum_menikah");
    await update(h.sek.token, b.body.id, { status: "diproses" });
    await update(h.sek.token, a.body.id, { status: "ditolak", note: "Data tidak lengkap" });
    const byStatus = await callJson<{ items: LetterBody[] }>("/api/surat?status=diproses", {
      token: h.sek.token,
    });
    expect(byStatus.body.items.map((l) => l.id)).toEqual([b.body.id]);
    const byJenis = await callJson<{ items: LetterBody[] }>("/api/surat?jenis=domisili", {
      token: h.sek.token,
    });
    expect(byJenis.body.items.map((l) => l.id)).toEqual([a.body.id]);
    const byDay = await callJson<{ items: LetterBody[] }>(`/api/surat?from=${today}&to=${today}`, {
      token: h.sek.token,
    });
    expect(byDay.body.items).toHaveLength(3);
    const before = await callJson<{ items: LetterBody[] }>("/api/surat?to=2020-01-01", {
      token: h.sek.token,
    });
    expect(before.body.items).toHaveLength(0);
    const stats = await callJson<{ indicators: { key: string; value: number }[] }>(
      "/api/statistik/operasional",
      {
        token: h.admin.token,
      },
    );
    expect(stats.body.indicators.find((i) => i.key === "lettersAwaitingProcessing")?.value).toBe(2);
  });

  it("answers 403 feature_disabled when the surat flag is off", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const { operatorToken } = await import("../../helpers/harness");
    const off = await callJson(`/api/platform/tenants/${tenant.id}`, {
      method: "PATCH",
      token: await operatorToken(),
      body: { flags: { surat: false } },
    });
    expect([200, 204]).toContain(off.status);
    expectProblem(await callJson("/api/surat", { token: sek.token }), 403, "feature_disabled");
  });
});

describe("notifications", () => {
  it("tells the resident at perlu_perbaikan, ditolak and selesai", async () => {
    const h = await newTenantHousehold();
    const make = () =>
      request(h.warga.token, {
        jenis: "belum_menikah",
        onBehalfOf: "self",
        keperluan: "Uji notifikasi",
        fields: {},
      });
    const fix = await make();
    await update(h.sek.token, fix.body.id, { status: "perlu_perbaikan", note: "Lampirkan fotokopi KK" });
    const reject = await make();
    await update(h.sek.token, reject.body.id, { status: "ditolak", note: "Bukan warga RT ini" });
    const done = await make();
    await update(h.sek.token, done.body.id, { status: "diproses" });
    await update(h.sek.token, done.body.id, {
      status: "selesai",
      nomorSurat: "N-1/2026",
      tanggalSurat: "2026-11-20",
    });
    const subjects = (await queuedMessages({ recipient: h.warga.email })).map((m) => m.subject ?? "");
    expect(subjects).toHaveLength(3);
    expect(subjects.some((s) => s.includes("perlu diperbaiki"))).toBe(true);
    expect(subjects.some((s) => s.includes("ditolak"))).toBe(true);
    expect(subjects.some((s) => s.includes("selesai"))).toBe(true);
  });
});
