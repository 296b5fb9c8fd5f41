import { describe, expect, it } from "vitest";
import { callJson, expectProblem } from "../../helpers/harness";
import { queuedMessages } from "../../helpers/notify";
import { insertTicket, openTicket, type TicketView, tenantWithAdmin, ticketRow } from "./helpers";

interface ListBody {
  items: TicketView[];
  nextCursor: string | null;
  summary: { total: number; baru: number; diproses: number; selesai: number };
}

describe("tenant side: creating and reading tickets", () => {
  it("creates a baru ticket from the tenant with a 256-bit reply token, audited", async () => {
    const { tenant, admin } = await tenantWithAdmin();
    const ticket = await openTicket(admin);
    expect(ticket).toMatchObject({
      status: "baru",
      source: "tenant",
      tenant: `Tenant ${tenant.slug}`,
      tenant_slug: tenant.slug,
      attachment_url: null,
      // Handed to the notification service, not yet delivered (delivery-state.test.ts).
      notification_pending: true,
      notification_failed: false,
      messages: [],
    });
    expect(ticket.reply_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(ticket.number).toBeGreaterThan(1000);
    const second = await openTicket(admin);
    expect(second.number).toBe(ticket.number + 1);
    expect(second.reply_token).not.toBe(ticket.reply_token);
    // Stored hashed for lookups as well.
    const row = await ticketRow(ticket.id);
    expect(row?.replyTokenHash).toMatch(/^[0-9a-f]{64}$/);
    const audit = await callJson<{ items: { action: string; targetId: string | null }[] }>(
      "/api/audit?limit=100",
      { token: admin.token },
    );
    const mine = audit.body.items.filter((a) => a.targetId === ticket.id);
    expect(mine.map((a) => a.action)).toEqual(["support_ticket.create"]);
    expect(mine[0]).toMatchObject({ actorId: admin.id, tenantId: tenant.id });
  });

  it("emails the submitter SUPPORT_TICKET_CREATED with [TKT:token], and the operators a notice", async () => {
    const { admin } = await tenantWithAdmin();
    const ticket = await openTicket(admin, { title: "Judul unik konfirmasi" });
    const [confirm] = await queuedMessages({ recipient: admin.email, template: "SUPPORT_TICKET_CREATED" });
    expect(confirm?.subject).toContain(`[TKT:${ticket.reply_token}]`);
    expect(confirm?.subject).toContain(`#${ticket.number}`);
    expect(confirm?.payload.replyTo).toBe("balas@support.warga.test");
    expect(String(confirm?.payload.html)).toContain(`/support/reply/${ticket.reply_token}`);
    for (const ops of ["ops-a@warga.test", "ops-b@warga.test"]) {
      const notices = await queuedMessages({ recipient: ops });
      expect(notices.some((m) => m.subject?.includes(`#${ticket.number}`))).toBe(true);
    }
  });

  it("validates the body", async () => {
    const { admin } = await tenantWithAdmin();
    const res = await callJson("/api/support-tickets", { token: admin.token, body: { category: "x" } });
    expectProblem(res, 400, "invalid_input");
  });

  it("takes a category from the closed list it publishes, and refuses any other with a field error", async () => {
    const { admin } = await tenantWithAdmin();
    const list = await callJson<{ items: { code: string; label: string; choosable: boolean }[] }>(
      "/api/support-tickets/categories",
    );
    expect(list.status).toBe(200);
    const choosable = list.body.items.filter((c) => c.choosable).map((c) => c.code);
    expect(choosable).toEqual(["teknis", "akun", "data", "tagihan", "saran", "lainnya"]);
    expect(list.body.items.find((c) => c.code === "kontak")).toMatchObject({
      label: "Formulir kontak",
      choosable: false,
    });
    expect(list.body.items.every((c) => c.label.length > 0)).toBe(true);
    for (const code of choosable) {
      expect((await openTicket(admin, { category: code })).category).toBe(code);
    }
    for (const category of ["Pertanyaan umum", "kontak", "TEKNIS", ""]) {
      const res = await callJson<{ errors?: { field: string }[] }>("/api/support-tickets", {
        token: admin.token,
        body: { category, title: "Laporan kas", detail: "Tombol unduh diam saja." },
      });
      expectProblem(res, 400, "invalid_input");
      expect(res.body.errors?.map((e) => e.field)).toEqual(["category"]);
    }
  });

  it("still reads a ticket opened with a free-text category before the list existed", async () => {
    const { tenant, admin } = await tenantWithAdmin();
    const old = await insertTicket({
      tenant,
      createdAt: new Date().toISOString(),
      category: "Pertanyaan umum",
    });
    const one = await callJson<TicketView>(`/api/support-tickets/${old.id}`, {
      token: admin.token,
    });
    expect(one.status).toBe(200);
    expect(one.body.category).toBe("Pertanyaan umum");
    const list = await callJson<ListBody>("/api/support-tickets", { token: admin.token });
    expect(list.body.items.map((t) => t.id)).toContain(old.id);
  });

  it("is for every staff duty of the tenant (spec: S), not its residents", async () => {
    const { tenant, admin } = await tenantWithAdmin();
    const resident = await tenant.member("warga");
    expectProblem(await callJson("/api/support-tickets", { token: resident.token }), 403, "forbidden_role");
    expectProblem(await callJson("/api/support-tickets"), 401, "unauthorized");
    const byAdmin = await openTicket(admin);
    for (const role of ["sekretaris", "bendahara"] as const) {
      const member = await tenant.member(role);
      const own = await openTicket(member, { title: `Pertanyaan dari ${role}` });
      const list = await callJson<ListBody>("/api/support-tickets", { token: member.token });
      expect(list.status).toBe(200);
      expect(list.body.items.map((t) => t.id)).toEqual(expect.arrayContaining([byAdmin.id, own.id]));
      const reply = await callJson(`/api/support-tickets/${byAdmin.id}/messages`, {
        token: member.token,
        body: { message: `Tambahan dari ${role}` },
      });
      expect(reply.status).toBe(201);
    }
  });

  it("shows the whole thread, and another tenant's ticket is 404", async () => {
    const { admin } = await tenantWithAdmin();
    const other = await tenantWithAdmin();
    const ticket = await openTicket(admin);
    const mine = await callJson<TicketView>(`/api/support-tickets/${ticket.id}`, { token: admin.token });
    expect(mine.status).toBe(200);
    expect(mine.body.id).toBe(ticket.id);
    expectProblem(
      await callJson(`/api/support-tickets/${ticket.id}`, { token: other.admin.token }),
      404,
      "not_found",
    );
    expectProblem(
      await callJson(`/api/support-tickets/${ticket.id}/messages`, {
        token: other.admin.token,
        body: { message: "bukan milik saya" },
      }),
      404,
      "not_found",
    );
    const list = await callJson<ListBody>("/api/support-tickets", { token: other.admin.token });
    expect(list.body.items).toEqual([]);
    expect(list.body.summary.total).toBe(0);
  });

  it("replies from the console, reopening a selesai ticket and telling the operators", async () => {
    const { tenant, admin } = await tenantWithAdmin();
    const { id } = await insertTicket({ tenant, createdAt: new Date().toISOString(), status: "selesai" });
    const res = await callJson<TicketView>(`/api/support-tickets/${id}/messages`, {
      token: admin.token,
      body: { message: "Masalahnya muncul lagi." },
    });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe("diproses");
    expect(res.body.messages).toMatchObject([
      {
        author: "submitter",
        message: "Masalahnya muncul lagi.",
        status_change: "diproses",
        lampiran_url: null,
      },
    ]);
    const told = await queuedMessages({
      recipient: "ops-a@warga.test",
      template: "SUPPORT_TICKET_SUBMITTER_REPLIED",
    });
    expect(told.some((m) => String(m.payload.text).includes("Masalahnya muncul lagi."))).toBe(true);
    // A second reply on an open ticket changes nothing.
    const again = await callJson<TicketView>(`/api/support-tickets/${id}/messages`, {
      token: admin.token,
      body: { message: "Tambahan info." },
    });
    expect(again.body.status).toBe("diproses");
    expect(again.body.messages[1]?.status_change).toBeNull();
  });
});

describe("tenant list: filters, Jakarta days and summary", () => {
  it("puts 23:30 WIB on the 5th into to=…-05 and 00:30 WIB on the 6th out of it", async () => {
    const { tenant, admin } = await tenantWithAdmin();
    const late = await insertTicket({ tenant, createdAt: "2026-11-05T16:30:00.000Z" }); // 23:30 WIB, 5 Nov
    const early = await insertTicket({ tenant, createdAt: "2026-11-05T17:30:00.000Z" }); // 00:30 WIB, 6 Nov
    const before = await insertTicket({ tenant, createdAt: "2026-11-04T16:59:59.000Z" }); // 23:59 WIB, 4 Nov
    const list = (q: string) => callJson<ListBody>(`/api/support-tickets?${q}`, { token: admin.token });
    const to5 = await list("to=2026-11-05");
    expect(to5.body.items.map((t) => t.id).sort()).toEqual([late.id, before.id].sort());
    const from6 = await list("from=2026-11-06");
    expect(from6.body.items.map((t) => t.id)).toEqual([early.id]);
    const on5 = await list("from=2026-11-05&to=2026-11-05");
    expect(on5.body.items.map((t) => t.id)).toEqual([late.id]);
    expect(on5.body.summary).toEqual({ total: 1, baru: 1, diproses: 0, selesai: 0 });
    expectProblem(await list("from=2026-11-06&to=2026-11-05"), 400, "invalid_range");
    expectProblem(await list("from=2026-13-01"), 400, "invalid_date");
  });

  it("counts the summary under each filter, and everything without filters", async () => {
    const { tenant, admin } = await tenantWithAdmin();
    await insertTicket({ tenant, createdAt: "2026-10-01T03:00:00.000Z", status: "baru" });
    await insertTicket({ tenant, createdAt: "2026-10-02T03:00:00.000Z", status: "diproses" });
    await insertTicket({ tenant, createdAt: "2026-10-02T04:00:00.000Z", status: "selesai" });
    await insertTicket({ tenant, createdAt: "2026-10-03T03:00:00.000Z", status: "selesai" });
    const list = (q: string) => callJson<ListBody>(`/api/support-tickets?${q}`, { token: admin.token });
    expect((await list("")).body.summary).toEqual({ total: 4, baru: 1, diproses: 1, selesai: 2 });
    const selesai = await list("status=selesai");
    expect(selesai.body.items.every((t) => t.status === "selesai")).toBe(true);
    expect(selesai.body.summary).toEqual({ total: 2, baru: 0, diproses: 0, selesai: 2 });
    expect((await list("from=2026-10-02&to=2026-10-02")).body.summary).toEqual({
      total: 2,
      baru: 0,
      diproses: 1,
      selesai: 1,
    });
    expect((await list("status=baru&from=2026-10-02")).body.summary).toEqual({
      total: 0,
      baru: 0,
      diproses: 0,
      selesai: 0,
    });
    expectProblem(await list("status=ditutup"), 400, "invalid_input");
  });

  it("pages with a cursor while the summary keeps counting the whole filtered set", async () => {
    const { tenant, admin } = await tenantWithAdmin();
    for (let i = 0; i < 5; i++) {
      await insertTicket({ tenant, createdAt: `2026-09-0${i + 1}T03:00:00.000Z` });
    }
    const first = await callJson<ListBody>("/api/support-tickets?limit=2", { token: admin.token });
    expect(first.body.items).toHaveLength(2);
    expect(first.body.summary.total).toBe(5);
    const seen = new Set(first.body.items.map((t) => t.id));
    let cursor = first.body.nextCursor;
    while (cursor) {
      const next = await callJson<ListBody>(`/api/support-tickets?limit=2&cursor=${cursor}`, {
        token: admin.token,
      });
      expect(next.body.summary.total).toBe(5);
      for (const t of next.body.items) {
        seen.add(t.id);
      }
      cursor = next.body.nextCursor;
    }
    expect(seen.size).toBe(5);
    // Newest first by creation time, whatever order the rows were written in.
    const all = await callJson<ListBody>("/api/support-tickets", { token: admin.token });
    const times = all.body.items.map((t) => (t as unknown as { created_at: string }).created_at);
    expect(times).toEqual([...times].sort().reverse());
    expectProblem(
      await callJson("/api/support-tickets?cursor=bukan-kursor", { token: admin.token }),
      400,
      "invalid_cursor",
    );
  });
});
