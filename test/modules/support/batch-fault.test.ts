import { describe, expect, it } from "vitest";
import { withTrigger } from "../../helpers/d1";
import { bindings, callJson, expectProblem } from "../../helpers/harness";
import { tenantWithAdmin } from "./helpers";

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
