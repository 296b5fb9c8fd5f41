import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { NotifyClient } from "../../../src/core/notify/client";
import { callJson } from "../../helpers/harness";
import { queuedMessages } from "../../helpers/notify";
import { finishedLetter, newTenantHousehold, request, update } from "./helpers";

afterEach(() => {
  vi.restoreAllMocks();
});

const auditActions = async (targetId: string) =>
  (
    await env.PLATFORM_DB.prepare("SELECT action FROM audit_log WHERE target_id = ? ORDER BY id")
      .bind(targetId)
      .all<{ action: string }>()
  ).results.map((r) => r.action);

describe("side effects of staff writes", () => {
  it("audits every staff change of a letter and of the letter settings", async () => {
    const h = await newTenantHousehold();
    const done = await finishedLetter(h, "AU-1");
    await update(h.sek.token, done.id, { nomorSurat: "AU-2" });
    expect(await auditActions(done.id)).toEqual(["surat.diproses", "surat.selesai", "surat.update"]);
    await callJson("/api/surat/settings", { method: "PUT", token: h.admin.token, body: { rt: "7" } });
    const settings = await env.PLATFORM_DB.prepare(
      "SELECT action, detail FROM audit_log WHERE tenant_id = ? AND action = 'surat.settings.update'",
    )
      .bind(h.tenant.id)
      .first<{ detail: string }>();
    expect(JSON.parse(settings?.detail ?? "{}")).toEqual({ fields: ["rt"] });
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
