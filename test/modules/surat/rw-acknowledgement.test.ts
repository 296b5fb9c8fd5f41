import { describe, expect, it } from "vitest";
import { openCursor } from "../../../src/core/http/cursor";
import { letterDocumentHtml } from "../../../src/modules/surat/publish";
import { loadLetter } from "../../../src/modules/surat/service";
import { jakartaTime, setNow } from "../../helpers/clock";
import { memberCtx } from "../../helpers/contexts";
import { tenantD1 } from "../../helpers/d1";
import {
  call,
  callJson,
  createTenant,
  expectProblem,
  type Member,
  type TestTenant,
} from "../../helpers/harness";
import { queuedMessages } from "../../helpers/notify";
import {
  ackingHousehold,
  finishedLetter,
  type Household,
  household,
  type LetterBody,
  settledRw,
  update,
} from "./helpers";

/** Issue 29, item 4: the RW's "Mengetahui" of its linked RTs' letters. */

interface AckItem {
  letterId: string;
  rt: { slug: string; name: string };
  status: string;
  subjectName: string;
  nomorSurat: string | null;
  signatory: { name: string; title: string } | null;
  acknowledgedBy: string | null;
  reason: string | null;
}
type AckLetter = LetterBody & {
  rwAcknowledgement: {
    status: string;
    name: string | null;
    reason: string | null;
    at?: string | null;
  } | null;
};

interface Rw {
  tenant: TestTenant;
  admin: Member;
  sek: Member;
}

async function newRw(headName = "Hendra Gunawan"): Promise<Rw> {
  const { tenant, admin } = await settledRw({ headName });
  return { tenant, admin, sek: await tenant.member("sekretaris") };
}

/** An RW with one linked RT (acknowledgement turned on) whose resident lives in a registered household. */
async function linkedRt(): Promise<{ rw: Rw; h: Household }> {
  const rw = await newRw();
  return { rw, h: await ackingHousehold(rw.tenant.slug) };
}

const queue = (token: string, query = "") =>
  callJson<{ items: AckItem[]; nextCursor: string | null }>(`/api/surat/rw-acknowledgements${query}`, {
    token,
  });
const acknowledge = (token: string, id: string) =>
  callJson<AckItem>(`/api/surat/rw-acknowledgements/${id}`, { token, body: {} });
const decline = (token: string, id: string, body: unknown) =>
  callJson<AckItem>(`/api/surat/rw-acknowledgements/${id}/decline`, { token, body });
const letterOf = async (h: Household, id: string) =>
  (await callJson<AckLetter>(`/api/surat/${id}`, { token: h.sek.token })).body;

describe("the RW's acknowledgement", () => {
  it("queues a linked RT's finished letter for the RW's admin and sekretaris, and acknowledges it into a new PDF version", async () => {
    const { rw, h } = await linkedRt();
    const settings = await callJson<{ rwAcknowledgement: boolean; rwLinked: boolean }>(
      "/api/surat/settings",
      {
        token: h.sek.token,
      },
    );
    expect(settings.body).toMatchObject({ rwAcknowledgement: true, rwLinked: true });
    const done = (await finishedLetter(h, "001/SKD/RT001.RW005/XI/2026")) as AckLetter;
    expect(done.rwAcknowledgement?.status).toBe("menunggu");
    // Issue 45: the resident sees it waits for the RW and gets no PDF (nor a "ready" message) before.
    const mine = await callJson<AckLetter & { awaitingRw: boolean }>(`/api/surat/${done.id}`, {
      token: h.warga.token,
    });
    expect(mine.body).toMatchObject({ status: "selesai", awaitingRw: true, pdfAvailable: false });
    expectProblem(
      await callJson(`/api/surat/${done.id}/pdf`, { token: h.warga.token }),
      409,
      "awaiting_rw_acknowledgement",
    );
    const told = (await queuedMessages({ recipient: h.warga.email })).map((m) => m.subject ?? "");
    expect(told.some((s) => s.includes("menunggu persetujuan RW"))).toBe(true);
    expect(told.some((s) => s.includes("sudah selesai"))).toBe(false);

    for (const member of [rw.admin, rw.sek]) {
      const seen = await queue(member.token);
      expect(seen.status).toBe(200);
      expect(seen.body.items.map((i) => i.letterId)).toEqual([done.id]);
      expect(seen.body.items[0]).toMatchObject({
        status: "menunggu",
        subjectName: "Budi Santoso",
        nomorSurat: "001/SKD/RT001.RW005/XI/2026",
        signatory: { name: "Bambang Sutrisno", title: "Ketua RT 001" },
        rt: { slug: h.tenant.slug },
      });
    }
    // The verification page shows the RT's signatory and that the RW's is awaited.
    const waiting = await (
      await call(`/verify/surat/${done.verificationCode}`, { headers: { "Accept-Language": "id" } })
    ).text();
    expect(waiting).toContain("Bambang Sutrisno");
    expect(waiting).toContain("Menunggu diketahui Ketua RW");

    setNow(jakartaTime("2026-11-21", 10));
    const acked = await acknowledge(rw.sek.token, done.id);
    expect(acked.status).toBe(200);
    expect(acked.body).toMatchObject({ status: "diketahui", acknowledgedBy: "Hendra Gunawan" });
    const after = await letterOf(h, done.id);
    expect(after.status).toBe("selesai");
    expect(after.pdfVersion).toBe(done.pdfVersion + 1);
    expect(after.rwAcknowledgement).toMatchObject({ status: "diketahui", name: "Hendra Gunawan" });
    expect(after.history?.at(-1)).toMatchObject({ status: "diketahui_rw", byStaff: true });

    const sek = await memberCtx(h.tenant.slug, h.sek, "sekretaris");
    const html = await letterDocumentHtml(sek, await loadLetter(sek, done.id));
    expect(html).toContain("Mengetahui, 21 November 2026");
    expect(html).toContain("Ketua RW 005");
    expect(html).toContain("<u>Hendra Gunawan</u>");
    expect(html).toContain("<u>Bambang Sutrisno</u>");

    // Once: acknowledged is not waiting any more.
    expectProblem(await acknowledge(rw.admin.token, done.id), 409, "invalid_transition");
    expect((await queue(rw.admin.token)).body.items).toEqual([]);
    expect((await queue(rw.admin.token, "?status=diketahui")).body.items.map((i) => i.letterId)).toEqual([
      done.id,
    ]);

    const subjects = (await queuedMessages({ recipient: h.warga.email })).map((m) => m.subject ?? "");
    expect(subjects.some((s) => s.includes("sudah diketahui RW"))).toBe(true);
    const ready = await callJson<AckLetter & { awaitingRw: boolean }>(`/api/surat/${done.id}`, {
      token: h.warga.token,
    });
    expect(ready.body).toMatchObject({ awaitingRw: false, pdfAvailable: true });

    const page = await (await call(`/verify/surat/${done.verificationCode}`)).text();
    expect(page).toContain("Ketua RT 001: Bambang Sutrisno");
    expect(page).toContain("Ketua RW 005: Hendra Gunawan (21 November 2026)");
  });

  it("lets the RT issue a waiting letter without the RW: who, when and why on the letter, out of the RW's queue, the PDF to the resident", async () => {
    const { rw, h } = await linkedRt();
    const done = (await finishedLetter(h, "002/SKD/RT001.RW005/XI/2026")) as AckLetter;
    const issue = (token: string, id: string, body: unknown) =>
      callJson<AckLetter & { awaitingRw: boolean }>(`/api/surat/${id}/issue-without-rw`, { token, body });
    expectProblem(await issue(h.sek.token, done.id, {}), 400, "invalid_input");
    // Another community's staff do not find it.
    const elsewhere = await household(await createTenant());
    expect((await issue(elsewhere.sek.token, done.id, { reason: "x" })).status).toBe(404);
    setNow(jakartaTime("2026-11-22", 9));
    const issued = await issue(h.sek.token, done.id, {
      reason: "RW sedang ke luar kota, surat dibutuhkan besok",
    });
    expect(issued.status).toBe(200);
    expect(issued.body).toMatchObject({
      status: "selesai",
      awaitingRw: false,
      pdfAvailable: true,
      rwAcknowledgement: {
        status: "tanpa_rw",
        name: expect.any(String),
        reason: "RW sedang ke luar kota, surat dibutuhkan besok",
      },
    });
    // When: the request's time (the clock runs on from the time set).
    expect(issued.body.rwAcknowledgement?.at?.slice(0, 16)).toBe(
      jakartaTime("2026-11-22", 9).toISOString().slice(0, 16),
    );
    expect(issued.body.history?.at(-1)).toMatchObject({ status: "terbit_tanpa_rw", byStaff: true });
    const mine = await callJson<AckLetter & { awaitingRw: boolean }>(`/api/surat/${done.id}`, {
      token: h.warga.token,
    });
    expect(mine.body).toMatchObject({ awaitingRw: false, pdfAvailable: true });
    const subjects = (await queuedMessages({ recipient: h.warga.email })).map((m) => m.subject ?? "");
    expect(subjects.some((s) => s.includes("sudah selesai"))).toBe(true);
    // The RW no longer has it to acknowledge; a second issue finds nothing waiting.
    expect((await queue(rw.admin.token)).body.items).toEqual([]);
    expectProblem(await acknowledge(rw.admin.token, done.id), 409, "invalid_transition");
    const twice = await callJson<{ allowedNext: string[] }>(`/api/surat/${done.id}/issue-without-rw`, {
      token: h.sek.token,
      body: { reason: "lagi" },
    });
    expectProblem(twice, 409, "invalid_transition");
    expect(twice.body.allowedNext).toEqual([]);
  });

  it("is refused to RT staff (404 on a letter, 403 not_rw_tenant on the queue), and another RW sees nothing of it", async () => {
    const { rw, h } = await linkedRt();
    const done = await finishedLetter(h, "RW-2");
    for (const member of [h.sek, h.admin]) {
      expectProblem(await acknowledge(member.token, done.id), 404, "not_found");
      expectProblem(await decline(member.token, done.id, { reason: "Bukan urusan RT" }), 404, "not_found");
      expectProblem(await queue(member.token), 403, "not_rw_tenant");
    }
    const other = await newRw("Joko Susilo");
    expect((await queue(other.admin.token)).body.items).toEqual([]);
    expectProblem(await acknowledge(other.admin.token, done.id), 404, "not_found");
    expectProblem(await decline(other.sek.token, done.id, { reason: "Bukan RW kami" }), 404, "not_found");
    // A resident of the RW holds no duty there: the guard refuses.
    const resident = await rw.tenant.member("warga");
    expectProblem(await queue(resident.token), 403, "forbidden_role");
    expect((await letterOf(h, done.id)).rwAcknowledgement?.status).toBe("menunggu");
  });

  it("declined, the letter goes back to the RT with the reason and waits again once the RT finishes it again", async () => {
    const { rw, h } = await linkedRt();
    const done = await finishedLetter(h, "RW-3");
    expectProblem(await decline(rw.admin.token, done.id, {}), 400, "invalid_input");
    const declined = await decline(rw.admin.token, done.id, {
      reason: "Alamat pemohon tidak sesuai data RW",
    });
    expect(declined.status).toBe(200);
    expect(declined.body).toMatchObject({ status: "ditolak", reason: "Alamat pemohon tidak sesuai data RW" });
    const back = await letterOf(h, done.id);
    expect(back.status).toBe("diproses");
    expect(back.rwAcknowledgement).toMatchObject({
      status: "ditolak",
      reason: "Alamat pemohon tidak sesuai data RW",
    });
    expect(back.history?.at(-1)).toMatchObject({
      status: "ditolak_rw",
      note: "Alamat pemohon tidak sesuai data RW",
    });
    // No longer a valid letter while the RT works on it.
    expect((await call(`/verify/surat/${done.verificationCode}`)).status).toBe(404);
    expectProblem(await acknowledge(rw.admin.token, done.id), 409, "invalid_transition");

    const again = await update(h.sek.token, done.id, { status: "selesai" });
    expect(again.status).toBe(200);
    expect((await letterOf(h, done.id)).rwAcknowledgement?.status).toBe("menunggu");
    expect((await acknowledge(rw.admin.token, done.id)).status).toBe(200);
  });

  it("asks nothing of an RW when the RT is not linked or switched it off", async () => {
    const alone = await household(await createTenant());
    const settings = await callJson<{ rwAcknowledgement: boolean }>("/api/surat/settings", {
      token: alone.sek.token,
    });
    expect(settings.body.rwAcknowledgement).toBe(false);
    expect(((await finishedLetter(alone, "SOLO-1")) as AckLetter).rwAcknowledgement).toBeNull();

    const { rw, h } = await linkedRt();
    await callJson("/api/surat/settings", {
      method: "PUT",
      token: h.admin.token,
      body: { rwAcknowledgement: false },
    });
    expect(((await finishedLetter(h, "OFF-1")) as AckLetter).rwAcknowledgement).toBeNull();
    expect((await queue(rw.admin.token)).body.items).toEqual([]);
  });

  it("shows the RW no letter of a linked RT until its admin turns the acknowledgement on, and none once it is off again (issue 44 P6)", async () => {
    const rw = await newRw();
    const h = await household(await createTenant({ parentSlug: rw.tenant.slug }));
    const settings = await callJson<{ rwAcknowledgement: boolean; rwLinked: boolean }>(
      "/api/surat/settings",
      {
        token: h.sek.token,
      },
    );
    expect(settings.body).toMatchObject({ rwAcknowledgement: false, rwLinked: true });
    expect(((await finishedLetter(h, "DEF-1")) as AckLetter).rwAcknowledgement).toBeNull();
    expect((await queue(rw.admin.token)).body.items).toEqual([]);

    const setAck = (value: boolean | null) =>
      callJson<{ rwAcknowledgement: boolean }>("/api/surat/settings", {
        method: "PUT",
        token: h.admin.token,
        body: { rwAcknowledgement: value },
      });
    expect((await setAck(true)).body.rwAcknowledgement).toBe(true);
    const waiting = (await finishedLetter(h, "ON-1")) as AckLetter;
    expect(waiting.rwAcknowledgement?.status).toBe("menunggu");
    expect((await queue(rw.admin.token)).body.items.map((i) => i.letterId)).toEqual([waiting.id]);

    // Off again: the waiting letter leaves the RW's queue, and the RW can no longer act on it.
    expect((await setAck(false)).body.rwAcknowledgement).toBe(false);
    expect((await letterOf(h, waiting.id)).rwAcknowledgement).toBeNull();
    expect((await queue(rw.admin.token)).body.items).toEqual([]);
    expectProblem(await acknowledge(rw.admin.token, waiting.id), 404, "not_found");

    // An RT that never chose (null), with a letter still marked for the RW: the RW reads none of it.
    expect((await setAck(true)).body.rwAcknowledgement).toBe(true);
    const old = (await finishedLetter(h, "OLD-1")) as AckLetter;
    expect(old.rwAcknowledgement?.status).toBe("menunggu");
    await tenantD1(h.tenant).prepare("UPDATE letter_settings SET rw_acknowledgement = NULL").run();
    expect((await queue(rw.admin.token)).body.items).toEqual([]);
    expectProblem(
      await decline(rw.admin.token, old.id, { reason: "Nama tidak sesuai KK" }),
      404,
      "not_found",
    );
  });

  it("pages the queue across the linked RTs, newest first", async () => {
    const { rw, h } = await linkedRt();
    const second = await ackingHousehold(rw.tenant.slug);
    const ids = [
      (await finishedLetter(h, "PG-1")).id,
      (await finishedLetter(second, "PG-2")).id,
      (await finishedLetter(h, "PG-3")).id,
    ];
    const first = await queue(rw.admin.token, "?limit=2");
    expect(first.body.items.map((i) => i.letterId)).toEqual([ids[2], ids[1]]);
    expect(openCursor("/api/surat/rw-acknowledgements", first.body.nextCursor ?? "")).toBe(ids[1]);
    const rest = await queue(rw.admin.token, `?limit=2&cursor=${first.body.nextCursor}`);
    expect(rest.body.items.map((i) => i.letterId)).toEqual([ids[0]]);
    expect(rest.body.nextCursor).toBeNull();
  });
});
