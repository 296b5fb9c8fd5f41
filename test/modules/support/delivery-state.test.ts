import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { systemPlatformCtx } from "../../../src/core/tenancy/system";
import { ticketReference, withDeliveryState } from "../../../src/modules/support/notifications";
import { bindings, callJson, operatorToken } from "../../helpers/harness";
import { openTicket, type TicketView, tenantWithAdmin, ticketRow } from "./helpers";

// Issue 42: a ticket said `notification_pending: false` while its emails were failing. Now the emails
// carry the ticket's reference, and the ticket is pending until the notification service reports them
// all sent; a failed or dead one is `notification_failed`. The service's delivery log is the test's
// NOTIFY_DB_TEST, where a delivery outcome is written as the consumer would write it.

async function setStatus(ticketId: string, status: string, which: "all" | "one" = "all") {
  const ids = await env.NOTIFY_DB_TEST.prepare("SELECT id FROM messages WHERE reference = ?1 ORDER BY id")
    .bind(ticketReference(ticketId))
    .all<{ id: string }>();
  const targets = which === "all" ? ids.results : ids.results.slice(0, 1);
  for (const { id } of targets) {
    await env.NOTIFY_DB_TEST.prepare("UPDATE messages SET status = ?2 WHERE id = ?1").bind(id, status).run();
  }
  return ids.results.length;
}

const tenantRead = (id: string, token: string) =>
  callJson<TicketView>(`/api/support-tickets/${id}`, { token });
const operatorRead = async (id: string) =>
  callJson<TicketView>(`/api/platform/support-tickets/${id}`, { token: await operatorToken() });

describe("a ticket's notification state follows delivery", () => {
  it("every email about the ticket carries its reference; the ticket is pending until all are sent", async () => {
    const { admin } = await tenantWithAdmin();
    const ticket = await openTicket(admin);
    expect(ticket).toMatchObject({ notification_pending: true, notification_failed: false });
    // The submitter's confirmation and the operators' notice (two inboxes).
    expect(await setStatus(ticket.id, "queued")).toBe(3);

    expect((await tenantRead(ticket.id, admin.token)).body.notification_pending).toBe(true);
    await setStatus(ticket.id, "retrying");
    expect((await operatorRead(ticket.id)).body).toMatchObject({
      notification_pending: true,
      notification_failed: false,
    });

    await setStatus(ticket.id, "sent");
    expect((await tenantRead(ticket.id, admin.token)).body).toMatchObject({
      notification_pending: false,
      notification_failed: false,
    });
    // Stored, so a list shows it and a settled ticket is not asked about again.
    expect(await ticketRow(ticket.id)).toMatchObject({
      notificationPending: false,
      notificationFailed: false,
    });
  });

  it("an email the service gave up on marks the ticket failed, on the detail and in the list", async () => {
    const { admin } = await tenantWithAdmin();
    const ticket = await openTicket(admin);
    await setStatus(ticket.id, "sent");
    await setStatus(ticket.id, "dead", "one");
    const list = await callJson<{ items: TicketView[] }>("/api/support-tickets?limit=100", {
      token: admin.token,
    });
    expect(list.body.items.find((t) => t.id === ticket.id)).toMatchObject({
      notification_pending: true,
      notification_failed: true,
    });
    expect((await operatorRead(ticket.id)).body).toMatchObject({
      notification_pending: true,
      notification_failed: true,
    });
    expect(await ticketRow(ticket.id)).toMatchObject({ notificationFailed: true });
  });

  it("a response to the submitter makes a delivered ticket pending again until it is sent", async () => {
    const { admin } = await tenantWithAdmin();
    const ticket = await openTicket(admin);
    await setStatus(ticket.id, "sent");
    expect((await tenantRead(ticket.id, admin.token)).body.notification_pending).toBe(false);
    const responded = await callJson<TicketView>(`/api/platform/support-tickets/${ticket.id}`, {
      method: "PATCH",
      token: await operatorToken(),
      body: { message: "Sedang kami periksa.", status: "diproses" },
    });
    expect(responded.status).toBe(200);
    expect(responded.body.notification_pending).toBe(true);
    await setStatus(ticket.id, "sent");
    expect((await tenantRead(ticket.id, admin.token)).body.notification_pending).toBe(false);
  });

  it("a service that cannot be asked leaves the ticket pending, never delivered", async () => {
    const { admin } = await tenantWithAdmin();
    const ticket = await openTicket(admin);
    await setStatus(ticket.id, "sent");
    const down = { fetch: async () => new Response("down", { status: 503 }) };
    const ctx = systemPlatformCtx({ ...bindings, NOTIFY: down } as unknown as typeof bindings, "test");
    const row = await ticketRow(ticket.id);
    const seen = await withDeliveryState(ctx, row as NonNullable<typeof row>);
    expect(seen).toMatchObject({ notificationPending: true, notificationFailed: false });
    expect(await ticketRow(ticket.id)).toMatchObject({ notificationPending: true });
  });

  it("another tenant's admin still cannot read the ticket's state", async () => {
    const { admin } = await tenantWithAdmin();
    const other = await tenantWithAdmin();
    const ticket = await openTicket(admin);
    const res = await tenantRead(ticket.id, other.admin.token);
    expect(res.status).toBe(404);
  });
});
