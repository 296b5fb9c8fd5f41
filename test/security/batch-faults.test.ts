import { describe, expect, it } from "vitest";
import { tenantD1, withTrigger } from "../helpers/d1";
import { bindings, callJson, createTenant, expectProblem, operatorToken } from "../helpers/harness";
import { tenantWithAdmin } from "../modules/support/helpers";

/**
 * Issue 12, faults: for every module with a multi-statement write, the batch's last statement is made to
 * fail (a trigger, `withTrigger`): the API answers an error and nothing of the batch is left behind.
 * One file for all modules: each test file costs a fresh runtime, and these are small.
 */
describe("aspirasi", () => {
  /** Issue 12, faults: a D1 batch failing half way leaves nothing written. */

  describe("a complaint whose batch fails at its last statement", () => {
    it("leaves neither the complaint nor its first thread entry, and answers an error", async () => {
      const tenant = await createTenant();
      const warga = await tenant.member("warga");
      const db = tenantD1(tenant);
      const title = `Gagal ${tenant.slug}`;
      // The thread's opening entry is the batch's last statement; the complaint before it is in the batch.
      const res = await withTrigger(
        db,
        `fail_complaint_${tenant.slug.replaceAll("-", "_")}`,
        `BEFORE INSERT ON complaint_messages
           WHEN NEW.complaint_id IN (SELECT id FROM complaints WHERE title = '${title}')
           BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
        () =>
          callJson("/api/pengaduan", {
            token: warga.token,
            body: { title, description: "Lampu di depan blok C mati", category: "infrastruktur" },
          }),
      );
      expectProblem(res, 500, "internal_error");
      const left = await db
        .prepare("SELECT COUNT(*) AS n FROM complaints WHERE title = ?")
        .bind(title)
        .first();
      expect(left?.n).toBe(0);
      const mine = await callJson<{ items: unknown[] }>("/api/pengaduan/mine", { token: warga.token });
      expect(mine.body.items).toEqual([]);
    });
  });
});

describe("gate", () => {
  /** Issue 12, faults: a D1 batch failing half way leaves nothing written. */

  describe("a gate device whose batch fails at its last write", () => {
    it("is not created, and the request answers an error", async () => {
      const tenant = await createTenant();
      const admin = await tenant.member("admin");
      // The audit record is the batch's last write, after the device row.
      const res = await withTrigger(
        bindings.PLATFORM_DB,
        `fail_device_${tenant.slug.replaceAll("-", "_")}`,
        `BEFORE INSERT ON audit_log
           WHEN NEW.action = 'gate_device.create' AND NEW.tenant_id = '${tenant.id}'
           BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
        () =>
          callJson("/api/gate-devices", {
            token: admin.token,
            body: { name: "Portal utama", adapter: "generic" },
          }),
      );
      expectProblem(res, 500, "internal_error");
      const left = await bindings.PLATFORM_DB.prepare(
        "SELECT COUNT(*) AS n FROM gate_devices WHERE tenant_id = ?",
      )
        .bind(tenant.id)
        .first();
      expect(left?.n).toBe(0);
    });
  });
});

describe("identity", () => {
  /** Issue 12, faults: a D1 batch failing half way leaves nothing written. */

  describe("a profile change whose batch fails at its last statement", () => {
    it("changes neither the account nor the membership's unit, and answers an error", async () => {
      const tenant = await createTenant();
      const warga = await tenant.member("warga");
      // The audit record closes the batch, after the account and the membership.
      const res = await withTrigger(
        bindings.PLATFORM_DB,
        `fail_profile_${tenant.slug.replaceAll("-", "_")}`,
        `BEFORE INSERT ON audit_log
           WHEN NEW.action = 'profile.update' AND NEW.target_id = '${warga.id}'
           BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
        () =>
          callJson("/api/user/profile", {
            method: "PUT",
            token: warga.token,
            body: { fullName: "Siti Aminah", whatsapp: "0812-7777-3131", block: "B", houseNumber: "12" },
          }),
      );
      expectProblem(res, 500, "internal_error");
      const me = await callJson<{ name: string; whatsapp: string | null; unitId: string | null }>(
        "/api/user/me",
        {
          token: warga.token,
        },
      );
      expect(me.body).toMatchObject({ name: "Pengguna Uji", whatsapp: null, unitId: null });
    });
  });
});

describe("kependudukan", () => {
  /** Issue 12, faults: a D1 batch failing half way leaves nothing written. */

  describe("a family card whose batch fails at its last statement", () => {
    it("leaves neither the card nor its head as a member, and answers an error", async () => {
      const tenant = await createTenant();
      const sek = await tenant.member("sekretaris");
      const unit = await callJson<{ id: string }>("/api/kependudukan/units", {
        token: sek.token,
        body: { block: "A", number: "7" },
      });
      const db = tenantD1(tenant);
      const stamp = String(Date.now()).slice(-8);
      const kkNumber = `32730000${stamp}`;
      // A woman born 1 January 1990 (day + 40), the serial from the stamp (never 0000).
      const headNik = `327311410190${String((Number(stamp) % 9999) + 1).padStart(4, "0")}`;
      // The audit record closes the batch, after the card and its head.
      const res = await withTrigger(
        db,
        `fail_kk_${tenant.slug.replaceAll("-", "_")}`,
        `BEFORE INSERT ON audit_log
           WHEN NEW.action = 'kk.create' AND NEW.actor_id = '${sek.id}'
           BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
        () =>
          callJson("/api/kependudukan/kk", {
            token: sek.token,
            body: { kkNumber, unitId: unit.body.id, headName: "Siti Aminah", headNik, headSex: "P" },
          }),
      );
      expectProblem(res, 500, "internal_error");
      const cards = await db
        .prepare("SELECT COUNT(*) AS n FROM family_cards WHERE kk_number = ?")
        .bind(kkNumber)
        .first();
      const members = await db
        .prepare("SELECT COUNT(*) AS n FROM family_members WHERE nik = ?")
        .bind(headNik)
        .first();
      expect([cards?.n, members?.n]).toEqual([0, 0]);
      // Nothing half-written blocks the same card from being registered afterwards.
      const again = await callJson("/api/kependudukan/kk", {
        token: sek.token,
        body: { kkNumber, unitId: unit.body.id, headName: "Siti Aminah", headNik, headSex: "P" },
      });
      expect(again.status).toBe(201);
    });
  });
});

describe("residents", () => {
  /** Issue 12, faults: a D1 batch failing half way leaves nothing written. */

  interface ApplicationBody {
    id: string;
    status: string;
    whatsapp: string;
  }

  describe("an approval whose batch fails at its last statement", () => {
    it("creates no account or membership and leaves the application waiting", async () => {
      const tenant = await createTenant();
      const sek = await tenant.member("sekretaris");
      const whatsapp = `0813${String(Date.now()).slice(-8)}`;
      const email = `gagal-${tenant.slug}@mail.test`;
      const applied = await callJson(`/api/public/tenants/${tenant.slug}/applications`, {
        body: { fullName: "Warga Baru", whatsapp, email, block: "A", houseNumber: "3" },
      });
      expect(applied.status).toBe(202);
      const list = await callJson<{ items: ApplicationBody[] }>("/api/applications?status=menunggu", {
        token: sek.token,
      });
      const app = list.body.items[0];
      expect(app).toBeDefined();
      const id = app?.id ?? "";
      // The audit record closes the batch, after the decision, the account and the membership.
      const res = await withTrigger(
        bindings.PLATFORM_DB,
        `fail_approval_${tenant.slug.replaceAll("-", "_")}`,
        `BEFORE INSERT ON audit_log
           WHEN NEW.action = 'application.approve' AND NEW.target_id = '${id}'
           BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
        () =>
          callJson(`/api/applications/${id}`, {
            method: "PUT",
            token: sek.token,
            body: { status: "disetujui" },
          }),
      );
      expectProblem(res, 500, "internal_error");
      const db = bindings.PLATFORM_DB;
      const row = await db
        .prepare("SELECT status, user_id FROM resident_applications WHERE id = ?")
        .bind(id)
        .first();
      expect(row).toEqual({ status: "menunggu", user_id: null });
      const accounts = await db
        .prepare("SELECT COUNT(*) AS n FROM users WHERE email = ?")
        .bind(email)
        .first();
      expect(accounts?.n).toBe(0);
      const members = await db
        .prepare("SELECT COUNT(*) AS n FROM memberships WHERE tenant_id = ? AND role = 'warga'")
        .bind(tenant.id)
        .first();
      expect(members?.n).toBe(0);
      // Nothing half-written: the same application can still be approved.
      const again = await callJson(`/api/applications/${id}`, {
        method: "PUT",
        token: sek.token,
        body: { status: "disetujui" },
      });
      expect(again.status).toBe(200);
    });
  });
});

describe("support", () => {
  /** Issue 12, faults: a D1 batch failing half way leaves nothing written. */

  describe("a ticket whose batch fails at its last statement", () => {
    it("is not opened, and the request answers an error", async () => {
      const { tenant, admin } = await tenantWithAdmin();
      // The audit record closes the batch, after the ticket.
      const res = await withTrigger(
        bindings.PLATFORM_DB,
        `fail_ticket_${tenant.slug.replaceAll("-", "_")}`,
        `BEFORE INSERT ON audit_log
           WHEN NEW.action = 'support_ticket.create' AND NEW.tenant_id = '${tenant.id}'
           BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
        () =>
          callJson("/api/support-tickets", {
            token: admin.token,
            body: { category: "teknis", title: "Laporan kas", detail: "Tombol unduh diam saja." },
          }),
      );
      expectProblem(res, 500, "internal_error");
      const db = bindings.PLATFORM_DB;
      const tickets = await db
        .prepare("SELECT COUNT(*) AS n FROM support_tickets WHERE tenant_id = ?")
        .bind(tenant.id)
        .first();
      expect(tickets?.n).toBe(0);
      const list = await callJson<{ items: unknown[] }>("/api/support-tickets", { token: admin.token });
      expect(list.body.items).toEqual([]);
    });
  });
});

describe("surat", () => {
  /** Issue 12, faults: a D1 batch failing half way leaves nothing written. */

  describe("letter settings whose batch fails at its last statement", () => {
    it("keep their previous values, and the change answers an error", async () => {
      const tenant = await createTenant();
      const admin = await tenant.member("admin");
      const settings = (body: Record<string, unknown>) =>
        callJson<{ kelurahan: string | null }>("/api/surat/settings", {
          method: "PUT",
          token: admin.token,
          body,
        });
      expect((await settings({ kelurahan: "Sukamaju" })).status).toBe(200);
      // The audit record closes the batch, after the settings row.
      const res = await withTrigger(
        tenantD1(tenant),
        `fail_settings_${tenant.slug.replaceAll("-", "_")}`,
        `BEFORE INSERT ON audit_log
           WHEN NEW.action = 'surat.settings.update' AND NEW.actor_id = '${admin.id}'
           BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
        () => settings({ kelurahan: "Sukamundur" }),
      );
      expectProblem(res, 500, "internal_error");
      const now = await callJson<{ kelurahan: string | null }>("/api/surat/settings", { token: admin.token });
      expect(now.body.kelurahan).toBe("Sukamaju");
    });
  });
});

describe("tenants", () => {
  /** Issue 12, faults: a D1 batch failing half way leaves nothing written. */

  describe("a tenant change whose batch fails at its last write", () => {
    it("keeps the tenant as it was, and answers an error", async () => {
      const tenant = await createTenant();
      const operator = await operatorToken();
      // The audit record is the batch's last write, after the tenant's row.
      const res = await withTrigger(
        bindings.PLATFORM_DB,
        `fail_tenant_${tenant.slug.replaceAll("-", "_")}`,
        `BEFORE INSERT ON audit_log
           WHEN NEW.action = 'tenant.update' AND NEW.target_id = '${tenant.id}'
           BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
        () =>
          callJson(`/api/platform/tenants/${tenant.id}`, {
            method: "PATCH",
            token: operator,
            body: { name: "RT Berganti Nama", status: "suspended" },
          }),
      );
      expectProblem(res, 500, "internal_error");
      const row = await bindings.PLATFORM_DB.prepare("SELECT name, status FROM tenants WHERE id = ?")
        .bind(tenant.id)
        .first();
      expect(row).toEqual({ name: "RT Uji", status: "active" });
    });
  });
});

describe("visitor", () => {
  /** Issue 12, faults: a D1 batch failing half way leaves nothing written. */

  interface VisitorBody {
    id: string;
    status: string;
    decidedAt: string | null;
    passValidFrom: string | null;
  }

  describe("a visitor decision whose batch fails at its last statement", () => {
    it("leaves the visit waiting, with no pass, and answers an error", async () => {
      const tenant = await createTenant();
      const warga = await tenant.member("warga", { unitId: "unit-fault", whatsapp: "6281200077001" });
      const sek = await tenant.member("sekretaris");
      const visitAt = new Date(Date.now() + 2 * 3_600_000).toISOString();
      const created = await callJson<VisitorBody>("/api/visitor", {
        token: warga.token,
        body: { guestName: "Andi Wijaya", purpose: "Silaturahmi", visitAt },
      });
      expect(created.status).toBe(201);
      const id = created.body.id;
      // The audit record closes the batch, after the decision and its guard.
      const res = await withTrigger(
        tenantD1(tenant),
        `fail_decision_${tenant.slug.replaceAll("-", "_")}`,
        `BEFORE INSERT ON audit_log
           WHEN NEW.action = 'visitor.approve' AND NEW.target_id = '${id}'
           BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
        () =>
          callJson(`/api/visitor/${id}`, { method: "PUT", token: sek.token, body: { status: "disetujui" } }),
      );
      expectProblem(res, 500, "internal_error");
      const now = await callJson<VisitorBody>(`/api/visitor/${id}`, { token: warga.token });
      expect(now.body).toMatchObject({ status: "menunggu", decidedAt: null, passValidFrom: null });
    });
  });
});

describe("kependudukan (issue 13)", () => {
  /** Issue 13, faults: deleting a card, a life event and an import are each one batch, audit last. */
  const failAudit = (slug: string, action: string) => ({
    name: `fail_registry_${slug.replaceAll("-", "_")}`,
    body: `BEFORE INSERT ON audit_log WHEN NEW.action = '${action}' BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
  });

  let seq = 0;
  /** Valid NIKs and KK numbers (born 1 January 1990), unique in this file. */
  const number = () => `32730101019${String(++seq).padStart(5, "0")}`;

  async function registry() {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const unit = await callJson<{ id: string }>("/api/kependudukan/units", {
      token: sek.token,
      body: { block: "K", number: "1" },
    });
    const card = await callJson<{ id: string }>("/api/kependudukan/kk", {
      token: sek.token,
      body: {
        kkNumber: number(),
        unitId: unit.body.id,
        headName: "Dedi Kurnia",
        headNik: number(),
        headSex: "L",
      },
    });
    await callJson(`/api/kependudukan/kk/${card.body.id}/vehicles`, {
      token: sek.token,
      body: { plate: "D 1 KK", kind: "motor" },
    });
    return { tenant, sek, cardId: card.body.id, db: tenantD1(tenant) };
  }

  it("a card whose delete fails at its audit record keeps its members and vehicles", async () => {
    const { tenant, sek, cardId, db } = await registry();
    const trigger = failAudit(tenant.slug, "kk.delete");
    const res = await withTrigger(db, trigger.name, trigger.body, () =>
      callJson(`/api/kependudukan/kk/${cardId}`, { method: "DELETE", token: sek.token }),
    );
    expectProblem(res, 500, "internal_error");
    const detail = await callJson<{ members: unknown[]; vehicles: unknown[] }>(
      `/api/kependudukan/kk/${cardId}`,
      {
        token: sek.token,
      },
    );
    expect([detail.body.members.length, detail.body.vehicles.length]).toEqual([1, 1]);
  });

  it("a pindah_keluar whose audit record fails leaves the card active and logs nothing", async () => {
    const { tenant, sek, cardId, db } = await registry();
    const trigger = failAudit(tenant.slug, "mutasi.pindah_keluar");
    const res = await withTrigger(db, trigger.name, trigger.body, () =>
      callJson("/api/kependudukan/mutasi", {
        token: sek.token,
        body: { kind: "pindah_keluar", date: "2026-01-05", familyCardId: cardId },
      }),
    );
    expectProblem(res, 500, "internal_error");
    const card = await callJson<{ status: string }>(`/api/kependudukan/kk/${cardId}`, { token: sek.token });
    expect(card.body.status).toBe("aktif");
    const log = await callJson<{ items: unknown[] }>("/api/kependudukan/mutasi", { token: sek.token });
    expect(log.body.items).toEqual([]);
  });

  it("an import whose audit record fails writes no unit, card or member", async () => {
    const { tenant, sek, db } = await registry();
    const csv = [
      "No. KK,Blok,No. Rumah,NIK,Nama,Hubungan,Jenis Kelamin",
      `${number()},Z,9,${number()},Eko Prasetyo,kepala_keluarga,L`,
    ].join("\r\n");
    const form = new FormData();
    form.set("file", new File([csv], "warga.csv"));
    const trigger = failAudit(tenant.slug, "kependudukan.import");
    const res = await withTrigger(db, trigger.name, trigger.body, () =>
      callJson("/api/kependudukan/import?dryRun=false", { token: sek.token, body: form }),
    );
    expectProblem(res, 500, "internal_error");
    const counts = await db
      .prepare(
        "SELECT (SELECT COUNT(*) FROM units WHERE block = 'Z') AS u, (SELECT COUNT(*) FROM family_members WHERE name = 'Eko Prasetyo') AS m",
      )
      .first<{ u: number; m: number }>();
    expect(counts).toEqual({ u: 0, m: 0 });
  });
});
