import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { platformDb } from "../../../src/core/db/platform";
import worker from "../../../src/index";
import { countingD1 } from "../../helpers/d1";
import { bindings, callJson, expectProblem, expectRefusedMove, operatorToken } from "../../helpers/harness";
import { queuedMessages } from "../../helpers/notify";
import { insertTicket, openTicket, type TicketView, tenantWithAdmin, ticketRow } from "./helpers";

interface ListBody {
  items: TicketView[];
  nextCursor: string | null;
  summary: { total: number; baru: number; diproses: number; selesai: number };
}

/** The ticket's audit records as operators read them (GET /api/platform/audit). */
async function auditOf(tenant: { slug: string }, ticketId: string) {
  const res = await callJson<{
    items: { action: string; targetId: string | null; tenantId: string | null }[];
  }>(`/api/platform/audit?tenant=${tenant.slug}&limit=100`, { token: await operatorToken() });
  expect(res.status).toBe(200);
  return res.body.items.filter((a) => a.targetId === ticketId);
}

const patch = async (id: string, body: Record<string, unknown>) =>
  callJson<TicketView>(`/api/platform/support-tickets/${id}`, {
    method: "PATCH",
    token: await operatorToken(),
    body,
  });

describe("operator list", () => {
  it("lists every tenant's tickets with the label Tenant {slug}, filtered by tenant, status and Jakarta days", async () => {
    const a = await tenantWithAdmin();
    const b = await tenantWithAdmin();
    const a1 = await insertTicket({ tenant: a.tenant, createdAt: "2026-11-05T16:30:00.000Z" });
    const a2 = await insertTicket({
      tenant: a.tenant,
      createdAt: "2026-11-05T17:30:00.000Z",
      status: "selesai",
    });
    const b1 = await insertTicket({
      tenant: b.tenant,
      createdAt: "2026-11-05T10:00:00.000Z",
      status: "diproses",
    });
    const token = await operatorToken();
    const list = (q: string) => callJson<ListBody>(`/api/platform/support-tickets?${q}`, { token });
    const ofA = await list(`tenant=${a.tenant.slug}`);
    expect(ofA.body.items.map((t) => t.id).sort()).toEqual([a1.id, a2.id].sort());
    expect(ofA.body.items.every((t) => t.tenant === `Tenant ${a.tenant.slug}`)).toBe(true);
    expect(ofA.body.summary).toEqual({ total: 2, baru: 1, diproses: 0, selesai: 1 });
    const ofAon5 = await list(`tenant=${a.tenant.slug}&to=2026-11-05`);
    expect(ofAon5.body.items.map((t) => t.id)).toEqual([a1.id]);
    const day5 = await list("from=2026-11-05&to=2026-11-05");
    expect(day5.body.items.map((t) => t.id).sort()).toEqual([a1.id, b1.id].sort());
    expect(day5.body.summary).toEqual({ total: 2, baru: 1, diproses: 1, selesai: 0 });
    const diproses = await list("status=diproses&from=2026-11-05&to=2026-11-06");
    expect(diproses.body.items.map((t) => t.id)).toEqual([b1.id]);
    expect(diproses.body.summary).toEqual({ total: 1, baru: 0, diproses: 1, selesai: 0 });
    // Without filters the summary covers every ticket on the platform.
    const all = await list("");
    const count = await platformDb(bindings).$count(
      (await import("../../../src/modules/support/platform-tables")).supportTickets,
    );
    expect(all.body.summary.total).toBe(count);
  });

  it("keeps the label from the ticket itself", async () => {
    const { tenant } = await tenantWithAdmin();
    const t = await insertTicket({
      tenant: { id: tenant.id, slug: "nama-lama" },
      createdAt: new Date().toISOString(),
    });
    const res = await callJson<TicketView>(`/api/platform/support-tickets/${t.id}`, {
      token: await operatorToken(),
    });
    expect(res.body.tenant).toBe("Tenant nama-lama");
  });

  it("is for operators only", async () => {
    const { admin } = await tenantWithAdmin();
    expectProblem(
      await callJson("/api/platform/support-tickets", { token: admin.token }),
      403,
      "forbidden_role",
    );
    expectProblem(await callJson("/api/platform/support-tickets"), 401, "unauthorized");
  });
});

describe("operator PATCH: respond and change status", () => {
  it("responds and changes status in one write, audited, and emails the submitter with [TKT:token]", async () => {
    const { tenant, admin } = await tenantWithAdmin();
    const ticket = await openTicket(admin, { title: "Respon gabungan" });
    const res = await patch(ticket.id, { message: "Sedang kami periksa.", status: "diproses" });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("diproses");
    expect(res.body.messages).toMatchObject([
      { author: "operator", message: "Sedang kami periksa.", status_change: "diproses" },
    ]);
    const audit = await auditOf(tenant, ticket.id);
    expect(audit.map((a) => a.action).sort()).toEqual(["support_ticket.create", "support_ticket.respond"]);
    expect(audit.every((a) => a.tenantId === tenant.id)).toBe(true);
    const [email] = await queuedMessages({ recipient: admin.email, template: "SUPPORT_TICKET_RESPONDED" });
    expect(email?.subject).toContain(`[TKT:${ticket.reply_token}]`);
    expect(String(email?.payload.html)).toContain(`/support/reply/${ticket.reply_token}`);
    expect(String(email?.payload.text)).toContain("Status: diproses");
    expect(email?.payload.replyTo).toBe("balas@support.warga.test");
  });

  it("allows baru → diproses → selesai and baru → selesai; everything else is 409", async () => {
    const { tenant, admin } = await tenantWithAdmin();
    const one = await openTicket(admin);
    expect((await patch(one.id, { status: "diproses" })).body.status).toBe("diproses");
    expectRefusedMove(await patch(one.id, { status: "baru" }), ["selesai"]);
    expectProblem(await patch(one.id, { status: "diproses" }), 409, "invalid_transition");
    expect((await patch(one.id, { status: "selesai" })).body.status).toBe("selesai");
    expectRefusedMove(await patch(one.id, { status: "diproses" }), []);
    expectProblem(await patch(one.id, { status: "baru", message: "kembali" }), 409, "invalid_transition");
    const two = await openTicket(admin);
    expect((await patch(two.id, { status: "selesai" })).body.status).toBe("selesai");
    // A message without status is a response and leaves the status alone.
    const note = await patch(two.id, { message: "Catatan penutup." });
    expect(note.body.status).toBe("selesai");
    // A status-only change records no message, and a refused one writes nothing at all.
    expect(note.body.messages).toHaveLength(1);
    const audit = await auditOf(tenant, one.id);
    expect(audit.filter((a) => a.action === "support_ticket.status")).toHaveLength(2);
  });

  it("lets only one of two concurrent closes of the same ticket through, and audits only that one", async () => {
    const { tenant, admin } = await tenantWithAdmin();
    const ticket = await openTicket(admin);
    // Concurrent for sure: each PATCH's batch waits until both have loaded the ticket and reached their
    // batch. (Left to timing, the second could load the first's result and be a plain response, 200.)
    let arrived = 0;
    let release = () => {};
    const bothThere = new Promise<void>((resolve) => {
      release = resolve;
    });
    const hold = (sql: string) => {
      if (!/^update "support_tickets"/.test(sql)) {
        return undefined;
      }
      arrived += 1;
      if (arrived === 2) {
        release();
      }
      return bothThere;
    };
    const env = { ...bindings, PLATFORM_DB: countingD1(bindings.PLATFORM_DB, [], hold) } as typeof bindings;
    const token = await operatorToken();
    const concurrentPatch = async (message: string) => {
      const res = await worker.fetch(
        new Request(`http://api.test/api/platform/support-tickets/${ticket.id}`, {
          method: "PATCH",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
          body: JSON.stringify({ status: "diproses", message }),
        }),
        env,
        createExecutionContext(),
      );
      await res.arrayBuffer();
      return res;
    };
    const results = await Promise.all([concurrentPatch("A"), concurrentPatch("B")]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const thread = await callJson<TicketView>(`/api/platform/support-tickets/${ticket.id}`, {
      token: await operatorToken(),
    });
    expect(thread.body.messages).toHaveLength(1);
    // The refused PATCH's batch was aborted by its guard: its audit row went with it.
    const audit = await auditOf(tenant, ticket.id);
    expect(audit.map((a) => a.action).sort()).toEqual(["support_ticket.create", "support_ticket.respond"]);
  });

  it("rejects an empty PATCH and an unknown ticket", async () => {
    const { admin } = await tenantWithAdmin();
    const ticket = await openTicket(admin);
    expectProblem(await patch(ticket.id, {}), 400, "invalid_input");
    expectProblem(await patch("01HZZZZZZZZZZZZZZZZZZZZZZZ", { status: "selesai" }), 404, "not_found");
  });

  it("a submitter reply reopens a selesai ticket to diproses", async () => {
    const { admin } = await tenantWithAdmin();
    const ticket = await openTicket(admin);
    await patch(ticket.id, { status: "selesai", message: "Sudah beres." });
    await callJson(`/api/support-tickets/${ticket.id}/messages`, {
      token: admin.token,
      body: { message: "Belum." },
    });
    expect((await ticketRow(ticket.id))?.status).toBe("diproses");
  });
});
