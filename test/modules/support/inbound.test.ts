import { describe, expect, it } from "vitest";
import { bindings, call, callJson, expectProblem, operatorToken, unique } from "../../helpers/harness";
import { queuedMessages } from "../../helpers/notify";
import { insertTicket, JPEG, PNG, pathOf, type TicketView, tenantWithAdmin, ticketRow } from "./helpers";

const ROUTE = "/internal/support-tickets/replies";
const key = () => ({ "X-Service-Internal-Key": bindings.INTERNAL_API_KEY });

function payload(replyToken: string, extra: Record<string, unknown> = {}) {
  return {
    replyToken,
    messageId: `<${unique("msg")}@mail.example.id>`,
    from: { address: "budi@example.id", name: "Budi Santoso" },
    subject: `Re: [TKT:${replyToken}] Tanggapan untuk tiket`,
    text: "Terima kasih, sudah bisa sekarang.",
    attachments: [],
    receivedAt: "2026-11-20T03:00:00.000Z",
    ...extra,
  };
}

async function stored(bytes: Uint8Array, name: string, type: string) {
  const k = `support/inbound/${unique("h")}/0-${name}`;
  await bindings.FILES.put(k, bytes, { httpMetadata: { contentType: type } });
  return { key: k, filename: name, contentType: type, size: bytes.byteLength };
}

describe("inbound email replies (internal route for the ticket-mail Worker)", () => {
  it("needs the internal service key: 401 otherwise, even for an operator", async () => {
    const body = payload("A".repeat(43));
    expectProblem(await callJson(ROUTE, { body }), 401, "invalid_service_key");
    expectProblem(
      await callJson(ROUTE, { body, headers: { "X-Service-Internal-Key": "salah" } }),
      401,
      "invalid_service_key",
    );
    expectProblem(await callJson(ROUTE, { body, token: await operatorToken() }), 401, "invalid_service_key");
  });

  it("answers 404 ticket_not_found for an unknown token", async () => {
    const res = await callJson(ROUTE, { body: payload("Z".repeat(43)), headers: key() });
    expectProblem(res, 404, "ticket_not_found");
  });

  it("appends the reply with its images, reopens a selesai ticket and tells the operators", async () => {
    const { tenant, admin } = await tenantWithAdmin();
    const { id, token } = await insertTicket({
      tenant,
      createdAt: new Date().toISOString(),
      status: "selesai",
    });
    const images = [
      await stored(JPEG, "foto.jpg", "image/jpeg"),
      await stored(PNG, "layar.png", "image/png"),
    ];
    const body = payload(token, { attachments: images });
    const res = await callJson<{ ticketId: string; messageId: string }>(ROUTE, { body, headers: key() });
    expect(res.status).toBe(201);
    expect(res.body.ticketId).toBe(id);
    expect(res.body.messageId).toMatch(/^[0-9A-Z]{26}$/);
    expect((await ticketRow(id))?.status).toBe("diproses");
    const thread = await callJson<TicketView>(`/api/support-tickets/${id}`, { token: admin.token });
    const [message] = thread.body.messages;
    expect(message).toMatchObject({ author: "submitter", message: body.text, status_change: "diproses" });
    expect(message?.lampiran_urls).toHaveLength(2);
    expect(message?.lampiran_url).toBe(message?.lampiran_urls[0]);
    // Served through the same access-checked route.
    const image = await call(pathOf(String(message?.lampiran_url)), { token: admin.token });
    expect(image.status).toBe(200);
    expect(image.headers.get("Content-Type")).toBe("image/jpeg");
    const told = await queuedMessages({
      recipient: "ops-a@warga.test",
      template: "SUPPORT_TICKET_SUBMITTER_REPLIED",
    });
    expect(
      told.some(
        (m) => m.subject?.includes(`[TKT:${token}]`) && String(m.payload.text).includes("Budi Santoso"),
      ),
    ).toBe(true);
  });

  it("never appends the same Message-ID twice, even when two deliveries race", async () => {
    const { tenant } = await tenantWithAdmin();
    const { id, token } = await insertTicket({ tenant, createdAt: new Date().toISOString() });
    const body = payload(token);
    const [a, b] = await Promise.all([
      callJson(ROUTE, { body, headers: key() }),
      callJson(ROUTE, { body, headers: key() }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect([a, b].find((r) => r.status === 200)?.body).toEqual({ duplicate: true });
    const again = await callJson(ROUTE, { body, headers: key() });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ duplicate: true });
    const thread = await callJson<TicketView>(`/api/platform/support-tickets/${id}`, {
      token: await operatorToken(),
    });
    expect(thread.body.messages).toHaveLength(1);
  });

  it("refuses attachments outside support/inbound/ or missing from R2, and an empty reply", async () => {
    const { tenant } = await tenantWithAdmin();
    const { token } = await insertTicket({ tenant, createdAt: new Date().toISOString() });
    const outside = {
      key: `tenants/${tenant.id}/support/x.png`,
      filename: "x.png",
      contentType: "image/png",
      size: 10,
    };
    expectProblem(
      await callJson(ROUTE, { body: payload(token, { attachments: [outside] }), headers: key() }),
      400,
      "invalid_attachment",
    );
    const missing = {
      key: "support/inbound/tidak-ada/0-x.png",
      filename: "x.png",
      contentType: "image/png",
      size: 10,
    };
    expectProblem(
      await callJson(ROUTE, { body: payload(token, { attachments: [missing] }), headers: key() }),
      400,
      "invalid_attachment",
    );
    expectProblem(
      await callJson(ROUTE, { body: payload(token, { text: "  " }), headers: key() }),
      400,
      "empty_reply",
    );
    // Only images: appended with empty text.
    const only = await callJson(ROUTE, {
      body: payload(token, { text: "", attachments: [await stored(PNG, "a.png", "image/png")] }),
      headers: key(),
    });
    expect(only.status).toBe(201);
  });
});
