import { describe, expect, it } from "vitest";
import { randomToken, sha256Hex } from "../../../src/core/ids";
import { bindings, call, callJson, operatorToken } from "../../helpers/harness";
import { queuedMessages } from "../../helpers/notify";
import { insertTicket, openTicket, tenantWithAdmin } from "./helpers";

const tokenIn = (subject: string | null | undefined) => /\[TKT:([^\]]+)\]/.exec(subject ?? "")?.[1];

async function rawRow(id: string) {
  return bindings.PLATFORM_DB.prepare("SELECT * FROM support_tickets WHERE id = ?")
    .bind(id)
    .first<Record<string, unknown>>();
}

const respond = async (id: string, message: string) =>
  callJson(`/api/platform/support-tickets/${id}`, {
    method: "PATCH",
    token: await operatorToken(),
    body: { message, status: "diproses" },
  });

describe("reply tokens are stored only as their hash", () => {
  it("keeps no clear token in the table, and the token from the creation email opens the ticket", async () => {
    const { admin } = await tenantWithAdmin();
    const ticket = await openTicket(admin, { title: "Token hanya hash" });
    const [email] = await queuedMessages({ recipient: admin.email, template: "SUPPORT_TICKET_CREATED" });
    const token = tokenIn(email?.subject);
    expect(token).toBe(ticket.reply_token);
    const columns = await bindings.PLATFORM_DB.prepare(
      "SELECT name FROM pragma_table_info('support_tickets')",
    ).all<{
      name: string;
    }>();
    expect(columns.results.map((c) => c.name)).not.toContain("reply_token");
    const row = await rawRow(ticket.id);
    expect(row).toBeTruthy();
    expect(Object.values(row ?? {}).some((v) => String(v).includes(String(token)))).toBe(false);
    const res = await callJson<{ title: string }>(`/api/public/support-tickets/${token}`);
    expect(res.status).toBe(200);
    expect(res.body.title).toBe("Token hanya hash");
  });

  it("never shows the token to the operator console or to later tenant reads", async () => {
    const { tenant, admin } = await tenantWithAdmin();
    const ticket = await openTicket(admin, { title: "Konsol tanpa token" });
    const token = ticket.reply_token;
    const operator = await operatorToken();
    const reads = [
      await call(`/api/platform/support-tickets/${ticket.id}`, { token: operator }),
      await call(`/api/platform/support-tickets?tenant=${tenant.slug}`, { token: operator }),
      await call(`/api/support-tickets/${ticket.id}`, { token: admin.token }),
      await call("/api/support-tickets", { token: admin.token }),
    ];
    const answered = await respond(ticket.id, "Sedang kami periksa.");
    expect(answered.status).toBe(200);
    for (const res of reads) {
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toContain(ticket.id);
      expect(text).not.toContain(token);
      expect(text).not.toContain("reply_token");
    }
    expect(JSON.stringify(answered.body)).not.toContain(token);
    expect(answered.body).not.toHaveProperty("reply_token");
  });

  it("puts the same token in every later email, so the first link keeps working", async () => {
    const { admin } = await tenantWithAdmin();
    const ticket = await openTicket(admin, { title: "Token tetap" });
    expect((await respond(ticket.id, "Tanggapan pertama.")).status).toBe(200);
    const [email] = await queuedMessages({ recipient: admin.email, template: "SUPPORT_TICKET_RESPONDED" });
    expect(tokenIn(email?.subject)).toBe(ticket.reply_token);
    expect((await call(`/api/public/support-tickets/${ticket.reply_token}`)).status).toBe(200);
  });

  it("re-issues a ticket whose stored hash is not of a derived token: the next email carries a working link", async () => {
    const { tenant, admin } = await tenantWithAdmin();
    // A random token's hash, as tickets created before tokens were derived have.
    const ticket = await insertTicket({ tenant, createdAt: new Date().toISOString() });
    const legacy = { id: ticket.id, token: randomToken(32) };
    await bindings.PLATFORM_DB.prepare(
      "UPDATE support_tickets SET submitter_email = ?, reply_token_hash = ? WHERE id = ?",
    )
      .bind(admin.email, await sha256Hex(legacy.token), legacy.id)
      .run();
    expect((await call(`/api/public/support-tickets/${legacy.token}`)).status).toBe(200);
    // The submitter's own reply through the page leaves their link alone.
    const reply = await callJson(`/api/public/support-tickets/${legacy.token}/messages`, {
      body: { message: "Masih bermasalah." },
    });
    expect(reply.status).toBe(201);
    expect((await call(`/api/public/support-tickets/${legacy.token}`)).status).toBe(200);
    expect((await respond(legacy.id, "Tiket lama dijawab.")).status).toBe(200);
    const [email] = await queuedMessages({ recipient: admin.email, template: "SUPPORT_TICKET_RESPONDED" });
    const fresh = tokenIn(email?.subject);
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fresh).not.toBe(legacy.token);
    expect((await call(`/api/public/support-tickets/${fresh}`)).status).toBe(200);
    expect((await call(`/api/public/support-tickets/${legacy.token}`)).status).toBe(404);
  });
});
