import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { tenantD1, withTrigger } from "../helpers/d1";
import {
  bindings,
  callJson,
  createTenant,
  expectProblem,
  type Member,
  operatorToken,
} from "../helpers/harness";
import { fakeGateways, midtransNotification, postCallback } from "../modules/billing/gateway";
import { CLEAN_PNG } from "../modules/galeri-pasar/images";
import { readyExport } from "../modules/platform-ops/helpers";
import { tenantWithAdmin } from "../modules/support/helpers";
import { GUEST_PAPERS } from "../modules/visitor/factories";

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
    it("changes neither the account nor the membership's unit, asks for no house, and answers an error", async () => {
      const tenant = await createTenant();
      const warga = await tenant.member("warga");
      // The audit record closes the batch, after the account; the house request (issue 44) comes after it.
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
      // A woman born 1 January 1990 in Kota Bandung (3273): day + 40 in digits 7–12.
      const headNik = `327301410190${stamp.slice(-4)}`;
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
        .prepare("SELECT COUNT(*) AS n FROM memberships WHERE tenant_id = ? AND roles = '[]'")
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

describe("billing", () => {
  /** Issue 15, faults: an invoice or a payment whose batch fails half way leaves nothing half-written. */

  it("issues no invoice (and spends no number) when the issuing batch fails at its audit record", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    fakeGateways();
    try {
      const res = await withTrigger(
        bindings.PLATFORM_DB,
        `fail_invoice_${tenant.slug.replaceAll("-", "_")}`,
        `BEFORE INSERT ON audit_log
           WHEN NEW.action = 'billing.invoice_issued' AND NEW.tenant_id = '${tenant.id}'
           BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
        () => callJson("/api/billing/invoices", { token: admin.token, body: { plan: "dasar", months: 1 } }),
      );
      expectProblem(res, 500, "internal_error");
      const left = await bindings.PLATFORM_DB.prepare(
        "SELECT COUNT(*) AS n FROM billing_invoices WHERE tenant_id = ?",
      )
        .bind(tenant.id)
        .first();
      expect(left?.n).toBe(0);
      const seqs = await bindings.PLATFORM_DB.prepare("SELECT seq FROM billing_invoices ORDER BY seq").all<{
        seq: number;
      }>();
      expect(seqs.results.map((r) => r.seq)).toEqual(seqs.results.map((_, i) => i + 1));
    } finally {
      vi.restoreAllMocks();
    }
  });

  it("leaves the invoice unpaid and the subscription unextended when applying a payment fails, and the gateway's retry applies it", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const gw = fakeGateways();
    try {
      const issued = await callJson<{ id: string; orderId: string; amount: number }>(
        "/api/billing/invoices",
        {
          token: admin.token,
          body: { plan: "dasar", months: 2 },
        },
      );
      const { orderId, amount } = issued.body;
      gw.midtrans.set(orderId, { transaction_status: "settlement", gross_amount: `${amount}.00` });
      const body = await midtransNotification(orderId, {
        transaction_status: "settlement",
        gross_amount: `${amount}.00`,
      });
      const untilBefore = await bindings.PLATFORM_DB.prepare(
        "SELECT active_until AS until FROM billing_subscriptions WHERE tenant_id = ?",
      )
        .bind(tenant.id)
        .first<{ until: string }>();
      const res = await withTrigger(
        bindings.PLATFORM_DB,
        `fail_paid_${tenant.slug.replaceAll("-", "_")}`,
        `BEFORE INSERT ON audit_log
           WHEN NEW.action = 'billing.invoice_paid' AND NEW.tenant_id = '${tenant.id}'
           BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
        () => postCallback(body),
      );
      expect(res.status).toBe(500);
      const state = () =>
        bindings.PLATFORM_DB.prepare(
          `SELECT i.status AS invoice, s.active_until AS until, o.status AS orderStatus, o.applied_at AS appliedAt
           FROM billing_invoices i, billing_subscriptions s, payment_orders o
           WHERE i.id = ? AND s.tenant_id = ? AND o.id = ?`,
        )
          .bind(issued.body.id, tenant.id, orderId)
          .first<{ invoice: string; until: string; orderStatus: string; appliedAt: string | null }>();
      expect(await state()).toEqual({
        invoice: "issued",
        until: untilBefore?.until,
        orderStatus: "paid",
        appliedAt: null,
      });

      expect((await postCallback(body)).status).toBe(200);
      const after = await state();
      expect(after).toMatchObject({ invoice: "paid", orderStatus: "paid" });
      expect(after?.appliedAt).not.toBeNull();
      expect(after?.until).not.toBe(untilBefore?.until);
    } finally {
      vi.restoreAllMocks();
    }
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
        body: { guestName: "Andi Wijaya", purpose: "Silaturahmi", visitAt, ...GUEST_PAPERS },
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

describe("hierarchy and asisten", () => {
  /** Issue 12, faults: a D1 batch failing half way leaves nothing written. */

  it("an RT link whose audit record fails leaves the RT unlinked, and answers an error", async () => {
    const rw = await createTenant({ type: "RW" });
    const head = await rw.member("admin");
    const rt = await createTenant();
    const rtAdmin = await rt.member("admin");
    const links = () =>
      bindings.PLATFORM_DB.prepare("SELECT parent_id, linked_at, parent_request_id FROM tenants WHERE id = ?")
        .bind(rt.id)
        .first();
    const ask = () =>
      callJson("/api/tenant-hierarchy/link-child", { token: head.token, body: { slug: rt.slug } });
    // The RW's request (issue 27) and the RT's acceptance each commit with their audit record or not at all.
    const asked = await withTrigger(
      bindings.PLATFORM_DB,
      `fail_ask_${rt.slug.replaceAll("-", "_")}`,
      `BEFORE INSERT ON audit_log
         WHEN NEW.action = 'hierarchy.link_request' AND NEW.target_id = '${rt.id}'
         BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      ask,
    );
    expectProblem(asked, 500, "internal_error");
    expect(await links()).toEqual({ parent_id: null, linked_at: null, parent_request_id: null });
    expect((await ask()).status).toBe(202);
    const res = await withTrigger(
      bindings.PLATFORM_DB,
      `fail_link_${rt.slug.replaceAll("-", "_")}`,
      `BEFORE INSERT ON audit_log
         WHEN NEW.action = 'hierarchy.link' AND NEW.target_id = '${rt.id}'
         BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      () => callJson("/api/tenant-hierarchy/parent-request/accept", { method: "POST", token: rtAdmin.token }),
    );
    expectProblem(res, 500, "internal_error");
    expect(await links()).toEqual({ parent_id: null, linked_at: null, parent_request_id: rw.id });
  });

  it("the assistant's rules text whose audit record fails is not written, and answers an error", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const res = await withTrigger(
      tenantD1(tenant),
      `fail_info_${tenant.slug.replaceAll("-", "_")}`,
      `BEFORE INSERT ON audit_log
         WHEN NEW.action = 'asisten.info_rt.update'
         BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      () =>
        callJson("/api/ai/info-rt", {
          method: "PUT",
          token: sek.token,
          body: { rules: "Portal tutup 22.00" },
        }),
    );
    expectProblem(res, 500, "internal_error");
    const info = await callJson<{ rules: string }>("/api/ai/info-rt", { token: sek.token });
    expect(info.body.rules).toBe("");
  });
});

describe("billing: voiding an invoice", () => {
  it("an operator's void whose audit record fails leaves the invoice open and payable", async () => {
    const tenant = await createTenant();
    const operator = await operatorToken();
    fakeGateways();
    try {
      const issued = await callJson<{ id: string; paymentUrl: string }>(
        `/api/platform/tenants/${tenant.id}/invoices`,
        { token: operator, body: { plan: "dasar", months: 1 } },
      );
      expect(issued.status).toBe(201);
      const res = await withTrigger(
        bindings.PLATFORM_DB,
        `fail_void_${tenant.slug.replaceAll("-", "_")}`,
        `BEFORE INSERT ON audit_log
           WHEN NEW.action = 'billing.invoice_voided' AND NEW.tenant_id = '${tenant.id}'
           BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
        () =>
          callJson(`/api/platform/tenants/${tenant.id}/invoices/${issued.body.id}/void`, {
            token: operator,
            body: { reason: "Salah paket" },
          }),
      );
      expectProblem(res, 500, "internal_error");
      const row = await bindings.PLATFORM_DB.prepare(
        "SELECT status, payment_url AS paymentUrl, voided_at AS voidedAt, json_array_length(history) AS entries FROM billing_invoices WHERE id = ?",
      )
        .bind(issued.body.id)
        .first();
      expect(row).toEqual({
        status: "issued",
        paymentUrl: issued.body.paymentUrl,
        voidedAt: null,
        entries: 1,
      });
    } finally {
      vi.restoreAllMocks();
    }
  });
});

describe("keuangan", () => {
  /** Issue 14, faults: a payment or an approval failing half way leaves neither it nor its cash entry. */

  async function financeTenant() {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const bendahara = await tenant.member("bendahara");
    const admin = await tenant.member("admin");
    const unit = await callJson<{ id: string }>("/api/kependudukan/units", {
      token: sek.token,
      body: { block: "K", number: "1" },
    });
    expect(unit.status).toBe(201);
    return { tenant, bendahara, admin };
  }
  /** A dues type of Rp 25,000 per unit and May 2026's bills: the id of the one unit's bill. */
  async function mayBill(bendahara: Member): Promise<string> {
    await callJson("/api/iuran/jenis", {
      token: bendahara.token,
      body: { name: "Iuran kebersihan", amount: 25_000, basis: "unit", startPeriod: "2026-01" },
    });
    await callJson("/api/iuran/tagihan/generate", { token: bendahara.token, body: { period: "2026-05" } });
    const bills = await callJson<{ items: { id: string }[] }>("/api/iuran/tagihan", {
      token: bendahara.token,
    });
    return bills.body.items[0]?.id ?? "";
  }
  const cashTotal = async (token: string) =>
    (await callJson<{ closingBalance: number; items: unknown[] }>("/api/kas", { token })).body;

  it("a dues payment whose batch fails at its last statement leaves the bill unpaid and the cash book empty", async () => {
    const { tenant, bendahara } = await financeTenant();
    const id = await mayBill(bendahara);
    // The audit record closes the batch, after the bill update, its guard, the payment and the cash entry.
    const res = await withTrigger(
      tenantD1(tenant),
      `fail_payment_${tenant.slug.replaceAll("-", "_")}`,
      `BEFORE INSERT ON audit_log
         WHEN NEW.action = 'iuran.payment' AND NEW.target_id = '${id}'
         BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      () =>
        callJson(`/api/iuran/tagihan/${id}/pembayaran`, {
          token: bendahara.token,
          body: { amount: 25_000, method: "tunai", paidAt: "2026-05-03T02:00:00.000Z" },
        }),
    );
    expectProblem(res, 500, "internal_error");
    const after = await callJson<{ items: { paidAmount: number; status: string }[] }>("/api/iuran/tagihan", {
      token: bendahara.token,
    });
    expect(after.body.items[0]).toMatchObject({ paidAmount: 0, status: "belum" });
    expect(await cashTotal(bendahara.token)).toMatchObject({ closingBalance: 0, items: [] });
  });

  it("a payment reversal whose audit record fails leaves the payment, the bill and the cash book as they were", async () => {
    const { tenant, bendahara } = await financeTenant();
    const billId = await mayBill(bendahara);
    const payment = await callJson<{ id: string }>(`/api/iuran/tagihan/${billId}/pembayaran`, {
      token: bendahara.token,
      body: { amount: 25_000, method: "transfer", paidAt: "2026-05-03T02:00:00.000Z" },
    });
    expect(payment.status).toBe(201);
    // The audit record closes the batch, after the reversing entry, the payment's mark and the bill.
    const res = await withTrigger(
      tenantD1(tenant),
      `fail_reversal_${tenant.slug.replaceAll("-", "_")}`,
      `BEFORE INSERT ON audit_log
         WHEN NEW.action = 'iuran.payment.reverse' AND NEW.target_id = '${payment.body.id}'
         BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      () =>
        callJson(`/api/iuran/pembayaran/${payment.body.id}/pembatalan`, {
          token: bendahara.token,
          body: { reason: "Transfer dibatalkan bank" },
        }),
    );
    expectProblem(res, 500, "internal_error");
    const after = await callJson<{
      items: { paidAmount: number; status: string; payments: { id: string; reversal: unknown }[] }[];
    }>("/api/iuran/tagihan", { token: bendahara.token });
    expect(after.body.items[0]).toMatchObject({
      paidAmount: 25_000,
      status: "lunas",
      payments: [{ id: payment.body.id, reversal: null }],
    });
    const book = await cashTotal(bendahara.token);
    expect(book.closingBalance).toBe(25_000);
    expect(book.items).toHaveLength(1);
  });

  it("an expense approval whose batch fails at its last statement leaves it submitted and unposted", async () => {
    const { tenant, bendahara, admin } = await financeTenant();
    const expense = await callJson<{ id: string }>("/api/pengeluaran", {
      token: bendahara.token,
      body: { category: "Keamanan", amount: 1_000_000, date: "2026-05-02", description: "Honor satpam" },
    });
    const id = expense.body.id;
    const res = await withTrigger(
      tenantD1(tenant),
      `fail_expense_${tenant.slug.replaceAll("-", "_")}`,
      `BEFORE INSERT ON audit_log
         WHEN NEW.action = 'pengeluaran.approve' AND NEW.target_id = '${id}'
         BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      () =>
        callJson(`/api/pengeluaran/${id}`, {
          method: "PUT",
          token: admin.token,
          body: { status: "disetujui" },
        }),
    );
    expectProblem(res, 500, "internal_error");
    const list = await callJson<{ items: { id: string; status: string }[] }>("/api/pengeluaran", {
      token: admin.token,
    });
    expect(list.body.items.find((e) => e.id === id)?.status).toBe("diajukan");
    expect(await cashTotal(admin.token)).toMatchObject({ closingBalance: 0, items: [] });
  });
});

describe("platform-ops", () => {
  /** Issue 19: an erasure whose batch fails at its audit row changes nothing. */
  it("an erasure failing at its last statement leaves every personal field in place and answers 500", async () => {
    const tenant = await createTenant();
    const person = await tenant.member("warga");
    const operator = await operatorToken();
    const db = tenantD1(tenant);
    await db
      .prepare(
        "INSERT INTO suggestions (id, sender_id, anonymous, body) VALUES ('01FAULTSUGGESTION000000000', ?, 0, 'Saran dari Dewi Lestari')",
      )
      .bind(person.id)
      .run();
    const res = await withTrigger(
      db,
      `fail_erasure_${tenant.slug.replaceAll("-", "_")}`,
      `BEFORE INSERT ON audit_log WHEN NEW.action = 'personal_data.erased'
         BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      () =>
        callJson(`/api/platform/tenants/${tenant.id}/erasures`, {
          token: operator,
          body: { userId: person.id },
        }),
    );
    expect(res.status).toBe(500);
    const row = await db
      .prepare("SELECT sender_id, body FROM suggestions WHERE id = '01FAULTSUGGESTION000000000'")
      .first();
    expect(row).toEqual({ sender_id: person.id, body: "Saran dari Dewi Lestari" });
  });
});

describe("konten", () => {
  /** Issue 16: a content write whose batch fails leaves nothing written and tells nobody. */

  it("an announcement whose audit record fails is not stored and not sent", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const db = tenantD1(tenant);
    const title = `Gagal ${tenant.slug}`;
    const res = await withTrigger(
      db,
      `fail_pengumuman_${tenant.slug.replaceAll("-", "_")}`,
      `BEFORE INSERT ON audit_log
         WHEN NEW.action = 'pengumuman.create' AND NEW.target_id IN (SELECT id FROM pengumuman WHERE title = '${title}')
         BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      () => callJson("/api/pengumuman", { token: sek.token, body: { title, body: "Tidak jadi" } }),
    );
    expectProblem(res, 500, "internal_error");
    const left = await db.prepare("SELECT COUNT(*) AS n FROM pengumuman WHERE title = ?").bind(title).first();
    expect(left?.n).toBe(0);
    const sent = await env.NOTIFY_DB_TEST.prepare(
      "SELECT COUNT(*) AS n FROM messages WHERE substr(reference, 1, length(?1)) = ?1",
    )
      .bind(`${tenant.id}:pengumuman:`)
      .first();
    expect(sent?.n).toBe(0);
  });

  it("a published news edit whose audit record fails keeps the old text and pushes no new version", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const db = tenantD1(tenant);
    const created = await callJson<{ id: string }>("/api/berita", {
      token: sek.token,
      body: { title: "Ronda malam", body: "Jadwal lama", status: "terbit" },
    });
    const res = await withTrigger(
      db,
      `fail_berita_${tenant.slug.replaceAll("-", "_")}`,
      `BEFORE INSERT ON audit_log WHEN NEW.action = 'berita.update' AND NEW.target_id = '${created.body.id}'
         BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      () =>
        callJson(`/api/berita/${created.body.id}`, {
          method: "PUT",
          token: sek.token,
          body: { body: "Jadwal baru" },
        }),
    );
    expectProblem(res, 500, "internal_error");
    const row = await db
      .prepare("SELECT body, version FROM berita WHERE id = ?")
      .bind(created.body.id)
      .first();
    expect(row).toEqual({ body: "Jadwal lama", version: 1 });
    const v2 = await env.NOTIFY_DB_TEST.prepare("SELECT COUNT(*) AS n FROM messages WHERE reference = ?")
      .bind(`${tenant.id}:berita:${created.body.id}:v2`)
      .first();
    expect(v2?.n).toBe(0);
  });
});

describe("galeri and pasar", () => {
  /** Issue 16, faults: a D1 batch failing half way leaves nothing written, and no stored bytes behind. */

  it("a gallery photo whose batch fails at its audit record leaves no photo, no file row, no object", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const album = await callJson<{ id: string }>("/api/galeri", {
      token: sek.token,
      body: { title: "Gagal" },
    });
    const db = tenantD1(tenant);
    const form = new FormData();
    form.set("file", new File([CLEAN_PNG], "foto.png", { type: "image/png" }));
    const res = await withTrigger(
      db,
      `fail_photo_${tenant.slug.replaceAll("-", "_")}`,
      `BEFORE INSERT ON audit_log
         WHEN NEW.action = 'galeri.photo.add' AND json_extract(NEW.detail, '$.albumId') = '${album.body.id}'
         BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      () => callJson(`/api/galeri/${album.body.id}/foto`, { token: sek.token, body: form }),
    );
    expectProblem(res, 500, "internal_error");
    const photos = await db
      .prepare("SELECT COUNT(*) AS n FROM gallery_photos WHERE album_id = ?")
      .bind(album.body.id)
      .first();
    expect(photos?.n).toBe(0);
    const files = await db
      .prepare("SELECT COUNT(*) AS n FROM files WHERE r2_key LIKE ?")
      .bind(`tenants/${tenant.id}/%`)
      .first();
    expect(files?.n).toBe(0);
    const objects = await bindings.FILES.list({ prefix: `tenants/${tenant.id}/` });
    expect(objects.objects).toEqual([]);
  });

  it("a moderation whose batch fails at its audit record leaves the listing as it was", async () => {
    const tenant = await createTenant();
    const [warga, sek] = [
      await tenant.member("warga", { whatsapp: "081355554444" }),
      await tenant.member("sekretaris"),
    ];
    const listing = await callJson<{ id: string }>("/api/pasar/listings", {
      token: warga.token,
      body: { title: "Sepeda bekas", description: "Masih bagus", price: 300000, category: "barang_bekas" },
    });
    const res = await withTrigger(
      tenantD1(tenant),
      `fail_moderation_${tenant.slug.replaceAll("-", "_")}`,
      `BEFORE INSERT ON audit_log
         WHEN NEW.action = 'pasar.listing.hide' AND NEW.target_id = '${listing.body.id}'
         BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      () =>
        callJson(`/api/pasar/listings/${listing.body.id}/moderasi`, {
          method: "PUT",
          token: sek.token,
          body: { status: "disembunyikan", reason: "Uji kegagalan" },
        }),
    );
    expectProblem(res, 500, "internal_error");
    const after = await callJson<{ status: string; moderation: unknown }>(
      `/api/pasar/listings/${listing.body.id}`,
      {
        token: warga.token,
      },
    );
    expect(after.body).toMatchObject({ status: "aktif", moderation: null });
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

describe("platform-ops: tenant archives (issue 19)", () => {
  it("an export request failing at its audit row leaves no archive behind and answers 500", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const res = await withTrigger(
      bindings.PLATFORM_DB,
      `fail_export_${tenant.slug.replaceAll("-", "_")}`,
      `BEFORE INSERT ON audit_log WHEN NEW.action = 'tenant.export_requested' AND NEW.tenant_id = '${tenant.id}'
         BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      () => callJson("/api/archives", { method: "POST", token: admin.token }),
    );
    expectProblem(res, 500, "internal_error");
    const left = await bindings.PLATFORM_DB.prepare(
      "SELECT COUNT(*) AS n FROM tenant_archives WHERE tenant_id = ?",
    )
      .bind(tenant.id)
      .first();
    expect(left?.n).toBe(0);
  });

  it("an import whose last batch fails after earlier ones committed leaves the target empty again", async () => {
    const source = await createTenant();
    const admin = await source.member("admin");
    // 600 audit rows: about 60 INSERTs of 10 rows, so the rows take more than one D1 batch.
    await tenantD1(source)
      .prepare(
        `WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 600)
         INSERT INTO audit_log (id, actor_role, action, target_type, created_at)
         SELECT printf('01FAULTAUDIT%014d', n), 'system', 'seed', 'test', '2026-01-01T00:00:00.000Z' FROM c`,
      )
      .run();
    await bindings.FILES.put(`tenants/${source.id}/files/galeri/01FAULTFILE000000000000000.png`, CLEAN_PNG);
    const archiveId = await readyExport(admin.token);
    const target = await createTenant();
    const db = tenantD1(target);
    const operator = await operatorToken();
    const res = await withTrigger(
      db,
      `fail_import_${target.slug.replaceAll("-", "_")}`,
      `BEFORE INSERT ON audit_log WHEN NEW.action = 'tenant.archive_imported'
         BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      () =>
        callJson(`/api/platform/tenants/${target.id}/imports?archiveId=${archiveId}`, {
          method: "POST",
          token: operator,
        }),
    );
    expectProblem(res, 500, "internal_error");
    const left = await db.prepare("SELECT COUNT(*) AS n FROM audit_log").first();
    expect(left?.n).toBe(0);
    expect((await bindings.FILES.list({ prefix: `tenants/${target.id}/` })).objects).toEqual([]);
    const record = await bindings.PLATFORM_DB.prepare(
      "SELECT status FROM tenant_archives WHERE tenant_id = ? AND kind = 'import'",
    )
      .bind(target.id)
      .first();
    expect(record?.status).toBe("failed");
    // Nothing stands in the way of the next try.
    const again = await callJson(`/api/platform/tenants/${target.id}/imports?archiveId=${archiveId}`, {
      method: "POST",
      token: operator,
    });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect((await db.prepare("SELECT COUNT(*) AS n FROM audit_log").first())?.n).toBe(601);
  });
});
