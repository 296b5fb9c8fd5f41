import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { updateLetter } from "../../../src/modules/surat/workflow";
import { NotifyClient } from "../../../src/platform/notify/client";
import { auditTrail, losingRace, memberCtx } from "../../helpers/contexts";
import { callJson, expectProblem } from "../../helpers/harness";
import { queuedMessages } from "../../helpers/notify";
import {
  finishedLetter,
  type Household,
  type LetterBody,
  newTenantHousehold,
  request,
  update,
} from "./helpers";

afterEach(() => {
  vi.restoreAllMocks();
});

const auditActions = async (h: Household, targetId: string) =>
  (await auditTrail(h.admin.token)).filter((e) => e.targetId === targetId).map((e) => e.action);

const submit = (h: Household) =>
  request(h.warga.token, { jenis: "belum_menikah", onBehalfOf: "self", keperluan: "Uji audit", fields: {} });

describe("side effects of staff writes", () => {
  it("audits every staff change of a letter and of the letter settings", async () => {
    const h = await newTenantHousehold();
    const done = await finishedLetter(h, "AU-1");
    await update(h.sek.token, done.id, { nomorSurat: "AU-2" });
    expect(await auditActions(h, done.id)).toEqual(["surat.diproses", "surat.selesai", "surat.update"]);
    await callJson("/api/surat/settings", { method: "PUT", token: h.admin.token, body: { rt: "7" } });
    // The last one: the household's letterhead was set first (helpers.ts).
    const settings = (await auditTrail(h.admin.token)).findLast((e) => e.action === "surat.settings.update");
    expect(settings?.detail).toEqual({ fields: ["rt"] });
  });

  it("writes the audit record in the change's batch: a lost race records nothing, a refused number neither", async () => {
    const h = await newTenantHousehold();
    const { body } = await submit(h);
    const ctx = await memberCtx(h.tenant.slug, h.sek, "sekretaris");
    // Another staff member's write lands between this one's read and its batch, from the same revision.
    const raced = losingRace(ctx, (db) =>
      db.run(sql`UPDATE letters SET revision = revision + 1 WHERE id = ${body.id}`),
    );
    await expect(
      updateLetter({ ctx: raced, id: body.id, input: { status: "diproses" } }),
    ).rejects.toMatchObject({ code: "invalid_transition" });
    expect(await auditActions(h, body.id)).toEqual([]);
    const seen = await callJson<LetterBody>(`/api/surat/${body.id}`, { token: h.sek.token });
    expect(seen.body.status).toBe("diajukan");
    expect(seen.body.history?.map((e) => e.status)).toEqual(["diajukan"]);

    // Without a rival the same call goes through, and is recorded once.
    await updateLetter({ ctx, id: body.id, input: { status: "diproses" } });
    expect(await auditActions(h, body.id)).toEqual(["surat.diproses"]);

    await finishedLetter(h, "AU-TAKEN");
    expectProblem(await update(h.sek.token, body.id, { nomorSurat: "AU-TAKEN" }), 409, "letter_number_taken");
    expect(await auditActions(h, body.id)).toEqual(["surat.diproses"]);
  });

  it("keeps the status change when the notification service fails, and logs it", async () => {
    const h = await newTenantHousehold();
    vi.spyOn(NotifyClient.prototype, "sendRawEmail").mockRejectedValue(new Error("notify down"));
    const warn = vi.spyOn(console, "warn");
    const { body } = await request(h.warga.token, {
      jenis: "belum_menikah",
      onBehalfOf: "self",
      keperluan: "Uji gagal kirim",
      fields: {},
    });
    const res = await update(h.sek.token, body.id, { status: "ditolak", note: "Uji" });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("ditolak");
    expect(warn.mock.calls.some(([line]) => String(line).includes("resident_notify_failed"))).toBe(true);
    expect(await queuedMessages({ recipient: h.warga.email })).toEqual([]);
  });

  it("sends each notification once per event (idempotency key per history entry)", async () => {
    const h = await newTenantHousehold();
    const send = vi.spyOn(NotifyClient.prototype, "sendRawEmail");
    const { body } = await request(h.warga.token, {
      jenis: "belum_menikah",
      onBehalfOf: "self",
      keperluan: "Uji kunci",
      fields: {},
    });
    await update(h.sek.token, body.id, { status: "perlu_perbaikan", note: "Satu" });
    await callJson(`/api/surat/${body.id}/resubmit`, { token: h.warga.token, body: {} });
    await update(h.sek.token, body.id, { status: "perlu_perbaikan", note: "Dua" });
    const keys = send.mock.calls.map(([input]) => input.idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(2);
    expect(keys.every((k) => k?.startsWith(`surat:${h.tenant.slug}:${body.id}:`))).toBe(true);
  });
});
