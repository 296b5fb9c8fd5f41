import { beforeEach, describe, expect, it } from "vitest";
import { inHours, keepToDaytime } from "../../helpers/clock";
import { callJson, createTenant, expectProblem, type TestTenant } from "../../helpers/harness";
import { GUEST_PAPERS } from "./factories";

/**
 * A pass's short code (issue 43, the gate screen's "type its code"): what a guard types when the QR
 * cannot be scanned, standing for the pass and meeting every check a scanned pass meets.
 */
interface VisitorBody {
  id: string;
  pass?: string | null;
  passCode?: string | null;
}

let unitSeq = 0;

async function approved(tenant: TestTenant, decision: Record<string, unknown> = {}) {
  unitSeq += 1;
  const warga = await tenant.member("warga", {
    unitId: `unit-code-${unitSeq}`,
    whatsapp: `62813${String(unitSeq).padStart(7, "0")}`,
  });
  const sek = await tenant.member("sekretaris");
  const created = await callJson<VisitorBody>("/api/visitor", {
    token: warga.token,
    body: { guestName: "Sari Dewi", purpose: "Arisan", visitAt: inHours(0.5), ...GUEST_PAPERS },
  });
  expect(created.status).toBe(201);
  expect(created.body.passCode).toBeNull();
  const decided = await callJson<VisitorBody>(`/api/visitor/${created.body.id}`, {
    method: "PUT",
    token: sek.token,
    body: { status: "disetujui", ...decision },
  });
  expect(decided.status).toBe(200);
  return { warga, visit: decided.body };
}

const gate = (token: string, direction: "in" | "out", body: unknown) =>
  callJson<{ visitorId: string; guestName: string }>(`/api/visitor/gate/check-${direction}`, { token, body });

describe("a pass's short code", () => {
  beforeEach(keepToDaytime);

  it("is shown with the approved pass, the same on every read, and never on the guard's list", async () => {
    const tenant = await createTenant();
    const { warga, visit } = await approved(tenant);
    expect(visit.passCode).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    const again = await callJson<VisitorBody>(`/api/visitor/${visit.id}`, { token: warga.token });
    expect(again.body.passCode).toBe(visit.passCode);
    const mine = await callJson<{ items: VisitorBody[] }>("/api/visitor/mine", { token: warga.token });
    expect(mine.body.items.map((v) => v.passCode)).toEqual([visit.passCode]);
    const satpam = await tenant.member("satpam");
    const list = await callJson<{ items: VisitorBody[] }>("/api/visitor", { token: satpam.token });
    expect(list.body.items.map((v) => v.id)).toEqual([visit.id]);
    expect(list.body.items[0]).not.toHaveProperty("pass");
    expect(list.body.items[0]).not.toHaveProperty("passCode");
  });

  it("checks a guest in and out as typed (any case, spaces, no dash), and then as the pass would be refused", async () => {
    const tenant = await createTenant();
    const { visit } = await approved(tenant);
    const satpam = await tenant.member("satpam");
    const typed = ` ${(visit.passCode ?? "").replace("-", " ").toLowerCase()} `;
    const inside = await gate(satpam.token, "in", { code: typed });
    expect(inside.status).toBe(200);
    expect(inside.body).toMatchObject({ visitorId: visit.id, guestName: "Sari Dewi" });
    expectProblem(await gate(satpam.token, "in", { code: visit.passCode }), 409, "already_checked_in");
    expect((await gate(satpam.token, "out", { code: visit.passCode })).status).toBe(200);
    expectProblem(await gate(satpam.token, "in", { qr: visit.pass }), 409, "pass_used");
  });

  it("answers an expired pass's code as the expired pass", async () => {
    const tenant = await createTenant();
    const { visit } = await approved(tenant, { validFrom: inHours(-5), validUntil: inHours(-1) });
    const satpam = await tenant.member("satpam");
    expectProblem(await gate(satpam.token, "in", { code: visit.passCode }), 409, "pass_expired");
  });

  it("refuses an unknown code, another community's code, and a body with neither or both", async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const { visit } = await approved(tenant);
    const satpam = await tenant.member("satpam");
    expectProblem(await gate(satpam.token, "in", { code: "0000-0000" }), 400, "invalid_pass");
    const foreignGuard = await other.member("satpam");
    expectProblem(await gate(foreignGuard.token, "in", { code: visit.passCode }), 400, "invalid_pass");
    expectProblem(await gate(satpam.token, "in", {}), 400, "invalid_input");
    expectProblem(
      await gate(satpam.token, "in", { qr: visit.pass, code: visit.passCode }),
      400,
      "invalid_input",
    );
    expectProblem(await gate(satpam.token, "in", { code: "AB" }), 400, "invalid_input");
    // None of these let the guest in: the right code still does.
    expect((await gate(satpam.token, "in", { code: visit.passCode })).status).toBe(200);
  });
});
