import { describe, expect, it } from "vitest";
import { tenantD1 } from "../../helpers/d1";
import { callJson, expectProblem } from "../../helpers/harness";
import {
  finishedLetter,
  type Household,
  type LetterBody,
  newTenantHousehold,
  request,
  update,
} from "./helpers";

const submit = (h: Household) =>
  request(h.warga.token, {
    jenis: "belum_menikah",
    onBehalfOf: "self",
    keperluan: "Persyaratan kerja",
    fields: {},
  });

describe("staff transitions", () => {
  it("goes diajukan → diproses → selesai, or diajukan → selesai in one step", async () => {
    const h = await newTenantHousehold();
    const { body } = await submit(h);
    const processing = await update(h.sek.token, body.id, { status: "diproses" });
    expect(processing.body.status).toBe("diproses");
    const done = await update(h.sek.token, body.id, {
      status: "selesai",
      nomorSurat: "A-1",
      tanggalSurat: "2026-11-20",
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: "selesai", nomorSurat: "A-1", pdfAvailable: true });
    expect(done.body.verificationCode).toMatch(new RegExp(`^${h.tenant.slug}\\.[A-Za-z0-9_-]{22,}$`));
    expect(done.body.history?.map((e) => e.status)).toEqual(["diajukan", "diproses", "selesai"]);
    expectProblem(await update(h.sek.token, body.id, { status: "diproses" }), 409, "invalid_transition");
    expectProblem(
      await update(h.sek.token, body.id, { status: "ditolak", note: "x" }),
      409,
      "invalid_transition",
    );
    // Issue 45: a simple letter needs no separate processing step.
    const quick = await submit(h);
    const direct = await update(h.sek.token, quick.body.id, {
      status: "selesai",
      nomorSurat: "A-2",
      tanggalSurat: "2026-11-20",
    });
    expect(direct.body).toMatchObject({ status: "selesai", nomorSurat: "A-2", pdfAvailable: true });
    expect(direct.body.history?.map((e) => e.status)).toEqual(["diajukan", "selesai"]);
  });

  it("names the caller's allowed next states in every state conflict, in the body and the detail", async () => {
    const h = await newTenantHousehold();
    type Refusal = { allowedNext?: string[]; detail: string };
    const { body } = await submit(h);
    await update(h.sek.token, body.id, { status: "diproses" });
    // The resident may only cancel a letter in process: Indonesian first.
    const resubmit = await callJson<Refusal>(`/api/surat/${body.id}/resubmit`, {
      token: h.warga.token,
      body: {},
    });
    expectProblem(resubmit, 409, "invalid_transition");
    expect(resubmit.body.allowedNext).toEqual(["dibatalkan"]);
    expect(resubmit.body.detail).toBe(
      "Perubahan status ini tidak diizinkan. Status berikutnya yang diizinkan: dibatalkan.",
    );
    // Sent back for correction: the resident resubmits or cancels; staff have no move left.
    await update(h.sek.token, body.id, { status: "perlu_perbaikan", note: "Perbaiki" });
    const staff = await callJson<Refusal>(`/api/surat/${body.id}`, {
      method: "PUT",
      token: h.sek.token,
      body: { status: "selesai" },
      headers: { "Accept-Language": "en" },
    });
    expectProblem(staff, 409, "invalid_transition");
    expect(staff.body).toMatchObject({
      allowedNext: [],
      detail: "A letter that is perlu_perbaikan cannot become selesai. No further state change is allowed.",
    });
    // A cancelled letter is final for everyone.
    await callJson(`/api/surat/${body.id}/cancel`, { token: h.warga.token, body: {} });
    const again = await callJson<Refusal>(`/api/surat/${body.id}/cancel`, { token: h.warga.token, body: {} });
    expect(again.body).toMatchObject({
      allowedNext: [],
      detail: "Perubahan status ini tidak diizinkan. Tidak ada perubahan status lagi yang diizinkan.",
    });
  });

  it("assigns the next number and today's date when staff finish without them, and keeps a typed number", async () => {
    const h = await newTenantHousehold();
    const { body } = await submit(h);
    const suggested = await callJson<{ nomorSurat: string }>("/api/surat/next-number?jenis=belum_menikah", {
      token: h.sek.token,
    });
    expect(suggested.status).toBe(200);
    const done = await update(h.sek.token, body.id, { status: "selesai" });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      status: "selesai",
      nomorSurat: suggested.body.nomorSurat,
      pdfAvailable: true,
    });
    expect(done.body.tanggalSurat).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const after = await callJson<{ nomorSurat: string }>("/api/surat/next-number?jenis=belum_menikah", {
      token: h.sek.token,
    });
    expect(after.body.nomorSurat).not.toBe(suggested.body.nomorSurat);
    // A number set beforehand, or sent with the move, is the one used.
    const set = await submit(h);
    expect(
      (await update(h.sek.token, set.body.id, { nomorSurat: "B-1", tanggalSurat: "2026-11-21" })).status,
    ).toBe(200);
    expect((await update(h.sek.token, set.body.id, { status: "selesai" })).body).toMatchObject({
      nomorSurat: "B-1",
      tanggalSurat: "2026-11-21",
    });
    const typed = await submit(h);
    expect(
      (await update(h.sek.token, typed.body.id, { status: "selesai", nomorSurat: "B-2" })).body.nomorSurat,
    ).toBe("B-2");
  });

  it("sends back for correction with a note; the resident corrects and resubmits to diajukan", async () => {
    const h = await newTenantHousehold();
    const { body } = await submit(h);
    expectProblem(await update(h.sek.token, body.id, { status: "perlu_perbaikan" }), 400, "note_required");
    const back = await update(h.sek.token, body.id, {
      status: "perlu_perbaikan",
      note: "Keperluan kurang jelas",
    });
    expect(back.body).toMatchObject({ status: "perlu_perbaikan", note: "Keperluan kurang jelas" });
    expectProblem(await update(h.sek.token, body.id, { status: "diproses" }), 409, "invalid_transition");
    expectProblem(await update(h.sek.token, body.id, { nomorSurat: "C-1" }), 409, "invalid_transition");
    const again = await callJson<LetterBody>(`/api/surat/${body.id}/resubmit`, {
      token: h.warga.token,
      body: { keperluan: "Persyaratan melamar kerja di pabrik", onBehalfOf: h.childMemberId },
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: "diajukan", subjectName: "Rina Santoso" });
    expectProblem(
      await callJson(`/api/surat/${body.id}/resubmit`, { token: h.warga.token, body: {} }),
      409,
      "invalid_transition",
    );
    // From diproses as well.
    await update(h.sek.token, body.id, { status: "diproses" });
    expect((await update(h.sek.token, body.id, { status: "perlu_perbaikan", note: "Lagi" })).status).toBe(
      200,
    );
  });

  it("rejects with a reason, from diajukan or diproses, and a rejected letter is final", async () => {
    const h = await newTenantHousehold();
    const first = await submit(h);
    expectProblem(await update(h.sek.token, first.body.id, { status: "ditolak" }), 400, "note_required");
    expect(
      (await update(h.sek.token, first.body.id, { status: "ditolak", note: "Bukan warga" })).body.status,
    ).toBe("ditolak");
    expectProblem(
      await update(h.sek.token, first.body.id, { status: "diproses" }),
      409,
      "invalid_transition",
    );
    expectProblem(
      await callJson(`/api/surat/${first.body.id}/cancel`, { token: h.warga.token, body: {} }),
      409,
      "invalid_transition",
    );
    const second = await submit(h);
    await update(h.sek.token, second.body.id, { status: "diproses" });
    expect(
      (await update(h.sek.token, second.body.id, { status: "ditolak", note: "Ganda" })).body.status,
    ).toBe("ditolak");
  });

  it("lets the resident cancel before selesai, never after", async () => {
    const h = await newTenantHousehold();
    for (const prepare of [[], ["diproses"]] as string[][]) {
      const { body } = await submit(h);
      for (const status of prepare) {
        await update(h.sek.token, body.id, { status });
      }
      const cancelled = await callJson<LetterBody>(`/api/surat/${body.id}/cancel`, {
        token: h.warga.token,
        body: {},
      });
      expect(cancelled.body.status).toBe("dibatalkan");
      expectProblem(await update(h.sek.token, body.id, { status: "diproses" }), 409, "invalid_transition");
    }
    const fix = await submit(h);
    await update(h.sek.token, fix.body.id, { status: "perlu_perbaikan", note: "Perbaiki" });
    expect(
      (await callJson<LetterBody>(`/api/surat/${fix.body.id}/cancel`, { token: h.warga.token, body: {} }))
        .body.status,
    ).toBe("dibatalkan");
    const done = await finishedLetter(h, "D-1");
    expectProblem(
      await callJson(`/api/surat/${done.id}/cancel`, { token: h.warga.token, body: {} }),
      409,
      "invalid_transition",
    );
  });

  it("bumps the PDF version when a finished letter's number or date is corrected", async () => {
    const h = await newTenantHousehold();
    const done = await finishedLetter(h, "E-1");
    const fixed = await update(h.sek.token, done.id, { nomorSurat: "E-2" });
    expect(fixed.body.pdfVersion).toBe(done.pdfVersion + 1);
    expect(fixed.body.verificationCode).toBe(done.verificationCode);
    const noteOnly = await update(h.sek.token, done.id, { note: "Diambil sendiri" });
    expect(noteOnly.body.pdfVersion).toBe(fixed.body.pdfVersion);
  });
});

describe("numbering", () => {
  const settings = { rt: "3", rw: "5", kota: "Bandung", headName: "H. Slamet" };

  it("suggests {seq:3}/{code}/RT{rt}.RW{rw}/{monthRoman}/{year} and counts on after a number is used", async () => {
    const h = await newTenantHousehold();
    expect(
      (await callJson("/api/surat/settings", { method: "PUT", token: h.admin.token, body: settings })).status,
    ).toBe(200);
    const next = await callJson<{ nomorSurat: string }>(
      "/api/surat/next-number?jenis=domisili&tanggal=2026-11-20",
      {
        token: h.sek.token,
      },
    );
    expect(next.body.nomorSurat).toBe("001/SKD/RT003.RW005/XI/2026");
    await finishedLetter(h, next.body.nomorSurat);
    const after = await callJson<{ nomorSurat: string }>(
      "/api/surat/next-number?jenis=usaha&tanggal=2026-12-01",
      {
        token: h.sek.token,
      },
    );
    expect(after.body.nomorSurat).toBe("002/SKU/RT003.RW005/XII/2026");
  });

  it("skips past numbers already in use when the counter is behind them", async () => {
    const h = await newTenantHousehold();
    await callJson("/api/surat/settings", { method: "PUT", token: h.admin.token, body: settings });
    await finishedLetter(h, "001/SKD/RT003.RW005/XI/2026", "2026-11-20");
    // Eleven more letters holding the next numbers (copies of that one), and the counter behind them all
    // (a sequence kept by hand before the app, say): the twelve taken numbers are skipped, past the
    // first few tried at once.
    const db = tenantD1(h.tenant);
    const columns = (await db.prepare("PRAGMA table_info(letters)").all<{ name: string }>()).results.map(
      (c) => c.name,
    );
    const copied = columns.map((c) =>
      ["id", "nomor_surat", "verification_code"].includes(c) ? `?${c === "nomor_surat" ? 2 : 1}` : c,
    );
    await db.batch([
      ...Array.from({ length: 11 }, (_, i) =>
        db
          .prepare(
            `INSERT INTO letters (${columns.join(", ")}) SELECT ${copied.join(", ")} FROM letters WHERE nomor_surat = '001/SKD/RT003.RW005/XI/2026'`,
          )
          .bind(`copy-${i}`, `${String(i + 2).padStart(3, "0")}/SKD/RT003.RW005/XI/2026`),
      ),
      db.prepare("UPDATE letter_sequences SET last = 0 WHERE year = 2026"),
    ]);
    const next = await callJson<{ nomorSurat: string }>(
      "/api/surat/next-number?jenis=domisili&tanggal=2026-11-20",
      { token: h.sek.token },
    );
    expect(next.body.nomorSurat).toBe("013/SKD/RT003.RW005/XI/2026");
  });

  it("restarts the sequence every year", async () => {
    const h = await newTenantHousehold();
    await callJson("/api/surat/settings", { method: "PUT", token: h.admin.token, body: settings });
    await finishedLetter(h, "001/SKD/RT003.RW005/XII/2026", "2026-12-30");
    await finishedLetter(h, "002/SKD/RT003.RW005/XII/2026", "2026-12-31");
    const nextYear = await callJson<{ nomorSurat: string }>(
      "/api/surat/next-number?jenis=domisili&tanggal=2027-01-02",
      {
        token: h.sek.token,
      },
    );
    expect(nextYear.body.nomorSurat).toBe("001/SKD/RT003.RW005/I/2027");
    const thisYear = await callJson<{ nomorSurat: string }>(
      "/api/surat/next-number?jenis=domisili&tanggal=2026-12-31",
      {
        token: h.sek.token,
      },
    );
    expect(thisYear.body.nomorSurat).toBe("003/SKD/RT003.RW005/XII/2026");
  });

  it("refuses a number already used in the tenant (409 letter_number_taken), also when two staff race", async () => {
    const h = await newTenantHousehold();
    await finishedLetter(h, "007/X/2026");
    const other = await submit(h);
    await update(h.sek.token, other.body.id, { status: "diproses" });
    expectProblem(
      await update(h.sek.token, other.body.id, {
        status: "selesai",
        nomorSurat: "007/X/2026",
        tanggalSurat: "2026-11-20",
      }),
      409,
      "letter_number_taken",
    );
    const a = await submit(h);
    const b = await submit(h);
    await update(h.sek.token, a.body.id, { status: "diproses" });
    await update(h.sek.token, b.body.id, { status: "diproses" });
    const both = await Promise.all(
      [a, b].map((l) =>
        update(h.sek.token, l.body.id, {
          status: "selesai",
          nomorSurat: "008/X/2026",
          tanggalSurat: "2026-11-20",
        }),
      ),
    );
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    // The same number in another tenant is fine: uniqueness is per tenant.
    const elsewhere = await newTenantHousehold();
    await finishedLetter(elsewhere, "007/X/2026");
  });

  it("moves the counter atomically when staff finish letters at once, and ignores numbers typed in another shape", async () => {
    const h = await newTenantHousehold();
    await callJson("/api/surat/settings", { method: "PUT", token: h.admin.token, body: settings });
    const letters = await Promise.all([1, 2, 3].map(() => submit(h)));
    for (const l of letters) {
      await update(h.sek.token, l.body.id, { status: "diproses" });
    }
    const finished = await Promise.all(
      letters.map((l, i) =>
        update(h.sek.token, l.body.id, {
          status: "selesai",
          nomorSurat: `00${i + 1}/SKBM/RT003.RW005/XI/2026`,
          tanggalSurat: "2026-11-20",
        }),
      ),
    );
    expect(finished.map((r) => r.status)).toEqual([200, 200, 200]);
    const hand = await submit(h);
    await update(h.sek.token, hand.body.id, {
      nomorSurat: "004/SKD/RT003.RW005/XI/2026",
      tanggalSurat: "2026-11-20",
    });
    const typed = await submit(h);
    await update(h.sek.token, typed.body.id, { nomorSurat: "Nomor khusus 1", tanggalSurat: "2026-11-20" });
    const next = await callJson<{ nomorSurat: string }>(
      "/api/surat/next-number?jenis=domisili&tanggal=2026-11-21",
      {
        token: h.sek.token,
      },
    );
    expect(next.body.nomorSurat).toBe("005/SKD/RT003.RW005/XI/2026");
  });

  it("gives letters finished at once without a number each their own next number", async () => {
    const h = await newTenantHousehold();
    // The secretary sets the letter settings (issue 45).
    expect(
      (await callJson("/api/surat/settings", { method: "PUT", token: h.sek.token, body: settings })).status,
    ).toBe(200);
    const letters = await Promise.all([1, 2, 3].map(() => submit(h)));
    const finished = await Promise.all(
      letters.map((l) => update(h.sek.token, l.body.id, { status: "selesai", tanggalSurat: "2026-11-20" })),
    );
    expect(finished.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(finished.map((r) => r.body.nomorSurat).sort()).toEqual([
      "001/SKBM/RT003.RW005/XI/2026",
      "002/SKBM/RT003.RW005/XI/2026",
      "003/SKBM/RT003.RW005/XI/2026",
    ]);
  });

  it("refuses a number format without {seq} or {year}", async () => {
    const h = await newTenantHousehold();
    for (const numberFormat of ["{code}/{year}", "{seq}/{code}", "{seq}/{nope}/{year}"]) {
      expectProblem(
        await callJson("/api/surat/settings", {
          method: "PUT",
          token: h.admin.token,
          body: { numberFormat },
        }),
        400,
        "invalid_number_format",
      );
    }
    const custom = await callJson("/api/surat/settings", {
      method: "PUT",
      token: h.admin.token,
      body: { numberFormat: "{year}-{seq:4}-{code}" },
    });
    expect(custom.status).toBe(200);
    const next = await callJson<{ nomorSurat: string }>(
      "/api/surat/next-number?jenis=sktm&tanggal=2026-03-01",
      {
        token: h.sek.token,
      },
    );
    expect(next.body.nomorSurat).toBe("2026-0001-SKTM");
  });
});
