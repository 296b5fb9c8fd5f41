import { beforeEach, describe, expect, it } from "vitest";
import { MAX_IMAGE_BYTES } from "../../../src/core/files";
import { systemNow } from "../../../src/core/time";
import { inHours, jakartaTime, keepToDaytime, setNow } from "../../helpers/clock";
import { tenantD1, withTrigger } from "../../helpers/d1";
import {
  call,
  callJson,
  createTenant,
  ENGLISH,
  expectProblem,
  expectRefusedMove,
  operatorToken,
  type TestTenant,
} from "../../helpers/harness";
import { queuedMessages } from "../../helpers/notify";
import { CLEAN_JPEG, CLEAN_PNG } from "../galeri-pasar/images";
import { GUEST_PAPERS } from "./factories";

interface VisitorBody {
  id: string;
  status: string;
  vehiclePlate: string | null;
  identity: string | null;
  pass?: string | null;
  passValidFrom: string | null;
  passValidUntil: string | null;
  inside: boolean;
  checkedInAt: string | null;
  checkedOutAt: string | null;
}

/** The Asia/Jakarta calendar day `days` from now. */
const jakartaDayIn = (days: number) =>
  new Date(systemNow().getTime() + days * 86_400_000 + 7 * 3_600_000).toISOString().slice(0, 10);
let unitSeq = 0;

async function resident(tenant: TestTenant) {
  unitSeq += 1;
  return tenant.member("warga", {
    unitId: `unit-${unitSeq}`,
    whatsapp: `62812${String(unitSeq).padStart(7, "0")}`,
  });
}

async function register(token: string, overrides: Record<string, unknown> = {}) {
  return callJson<VisitorBody>("/api/visitor", {
    token,
    body: {
      guestName: "Andi Wijaya",
      purpose: "Silaturahmi",
      visitAt: inHours(2),
      ...GUEST_PAPERS,
      ...overrides,
    },
  });
}

async function approvedVisit(tenant: TestTenant, decision: Record<string, unknown> = {}) {
  const warga = await resident(tenant);
  const sek = await tenant.member("sekretaris");
  // Half an hour ahead: the default pass window (from an hour before the visit) is open now.
  const created = await register(warga.token, { visitAt: inHours(0.5) });
  const approved = await callJson<VisitorBody>(`/api/visitor/${created.body.id}`, {
    method: "PUT",
    token: sek.token,
    body: { status: "disetujui", ...decision },
  });
  expect(approved.status).toBe(200);
  return { warga, sek, visit: approved.body };
}

const gate = (token: string, direction: "in" | "out", qr: string) =>
  callJson<{ visitorId: string; checkedInAt: string | null; checkedOutAt: string | null }>(
    `/api/visitor/gate/check-${direction}`,
    { token, body: { qr } },
  );

// A visit "in half an hour" must fall on the same Jakarta day wherever the wall clock stands.
beforeEach(keepToDaytime);

describe("registering guests", () => {
  it("creates a waiting request with a normalised plate", async () => {
    const tenant = await createTenant();
    const warga = await resident(tenant);
    const res = await register(warga.token, { vehiclePlate: "  b 1234   xyz " });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: "menunggu",
      vehiclePlate: "B 1234 XYZ",
      pass: null,
      inside: false,
    });
  });

  it("needs a complete profile", async () => {
    const tenant = await createTenant();
    const incomplete = await tenant.member("warga");
    expectProblem(await register(incomplete.token), 409, "profile_incomplete");
  });

  it("refuses a visit more than an hour in the past, and bad input", async () => {
    const tenant = await createTenant();
    const warga = await resident(tenant);
    expectProblem(await register(warga.token, { visitAt: inHours(-2) }), 400, "visit_in_past");
    expect((await register(warga.token, { visitAt: inHours(-0.5) })).status).toBe(201);
    expectProblem(await register(warga.token, { guestName: "" }), 400, "invalid_input");
    expectProblem(await register(warga.token, { vehiclePlate: "B_1234!XYZ" }), 400, "invalid_input");
  });

  it("keeps a guest's plate in the spaced form however it was typed (issue 49: dashes, no spaces, any case)", async () => {
    const tenant = await createTenant();
    const warga = await resident(tenant);
    for (const typed of ["B-1234-XYZ", "b1234xyz", " b 1234-xyz "]) {
      const res = await register(warga.token, { vehiclePlate: typed });
      expect(res.status, typed).toBe(201);
      expect(res.body.vehiclePlate, typed).toBe("B 1234 XYZ");
    }
  });

  it("requires the guest's plate and identity by default (spec: given at registration), a field error each", async () => {
    const tenant = await createTenant();
    const warga = await resident(tenant);
    const settings = await callJson("/api/visitor/settings", { token: warga.token });
    expect(settings.status).toBe(200);
    expect(settings.body).toMatchObject({
      requireVehiclePlate: true,
      requireIdentity: true,
      updatedAt: null,
    });
    const fieldsOf = (res: { body: unknown }) =>
      ((res.body as { errors?: { field: string }[] }).errors ?? []).map((e) => e.field).sort();
    const cases: [Record<string, unknown>, string[]][] = [
      [{ vehiclePlate: undefined }, ["vehiclePlate"]],
      [{ identity: undefined }, ["identity"]],
      [{ vehiclePlate: undefined, identity: undefined }, ["identity", "vehiclePlate"]],
      [{ identity: "   " }, ["identity"]],
    ];
    for (const [overrides, fields] of cases) {
      const res = await register(warga.token, overrides);
      expectProblem(res, 400, "invalid_input");
      expect(fieldsOf(res)).toEqual(fields);
    }
    const mine = await callJson<{ items: unknown[] }>("/api/visitor/mine", { token: warga.token });
    expect(mine.body.items).toEqual([]);
  });

  it("lets a community's admin stop recording them, for that community only", async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const warga = await resident(tenant);
    const outsider = await resident(other);
    const admin = await tenant.member("admin");
    const put = (token: string, body: unknown) =>
      callJson<{ requireVehiclePlate: boolean; requireIdentity: boolean }>("/api/visitor/settings", {
        method: "PUT",
        token,
        body,
      });
    expectProblem(await put(warga.token, { requireVehiclePlate: false }), 403, "forbidden_role");
    expectProblem(
      await put((await tenant.member("sekretaris")).token, { requireVehiclePlate: false }),
      403,
      "forbidden_role",
    );
    expectProblem(await put(admin.token, {}), 400, "invalid_input");
    expectProblem(await put(admin.token, { requireIdentity: "tidak" }), 400, "invalid_input");

    const changed = await put(admin.token, { requireVehiclePlate: false });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ requireVehiclePlate: false, requireIdentity: true });
    const onFoot = await register(warga.token, { vehiclePlate: undefined });
    expect(onFoot.status).toBe(201);
    expect(onFoot.body.vehiclePlate).toBeNull();
    expectProblem(await register(warga.token, { identity: undefined }), 400, "invalid_input");

    expect((await put(admin.token, { requireIdentity: false })).body).toMatchObject({
      requireVehiclePlate: false,
      requireIdentity: false,
    });
    const bare = await register(warga.token, { vehiclePlate: undefined, identity: undefined });
    expect(bare.status).toBe(201);
    expect(bare.body.identity).toBeNull();

    // Another community keeps the spec's default.
    expectProblem(await register(outsider.token, { vehiclePlate: undefined }), 400, "invalid_input");
    const theirs = await callJson("/api/visitor/settings", { token: outsider.token });
    expect(theirs.body).toMatchObject({ requireVehiclePlate: true, requireIdentity: true });
  });

  it("shows a resident only their own requests", async () => {
    const tenant = await createTenant();
    const a = await resident(tenant);
    const b = await resident(tenant);
    const mine = await register(a.token);
    await register(b.token);
    const list = await callJson<{ items: VisitorBody[] }>("/api/visitor/mine", { token: a.token });
    expect(list.body.items.map((v) => v.id)).toEqual([mine.body.id]);
    expectProblem(await callJson(`/api/visitor/${mine.body.id}`, { token: b.token }), 404, "not_found");
    expectProblem(await callJson("/api/visitor", { token: a.token }), 403, "forbidden_role");
  });
});

describe("reviewing", () => {
  it("approves with a pass valid from an hour before the visit to the end of that day in Jakarta, and emails the resident", async () => {
    const tenant = await createTenant();
    const warga = await resident(tenant);
    const sek = await tenant.member("sekretaris");
    const day = jakartaDayIn(3);
    const created = await register(warga.token, { visitAt: `${day}T10:00:00+07:00` });
    const approved = await callJson<VisitorBody>(`/api/visitor/${created.body.id}`, {
      method: "PUT",
      token: sek.token,
      body: { status: "disetujui" },
    });
    expect(approved.body).toMatchObject({
      status: "disetujui",
      passValidFrom: `${day}T02:00:00.000Z`,
      passValidUntil: `${day}T16:59:59.000Z`,
    });
    expect(approved.body.pass?.split(".")).toHaveLength(3);
    const mine = await callJson<{ items: VisitorBody[] }>("/api/visitor/mine", { token: warga.token });
    expect(mine.body.items[0]?.pass).toBe(approved.body.pass);
    const [email] = await queuedMessages({ recipient: warga.email, template: "VISITOR_APPROVED" });
    expect(email?.payload).toBeDefined();
    expectProblem(
      await callJson(`/api/visitor/${created.body.id}`, {
        method: "PUT",
        token: sek.token,
        body: { status: "ditolak" },
      }),
      409,
      "invalid_transition",
    );
  });

  it("records each decision in the audit log, and none for a request decided meanwhile", async () => {
    const tenant = await createTenant();
    const warga = await resident(tenant);
    const sek = await tenant.member("sekretaris");
    const admin = await tenant.member("admin");
    const first = await register(warga.token);
    const second = await register(warga.token);
    const decide = (id: string) =>
      callJson(`/api/visitor/${id}`, { method: "PUT", token: sek.token, body: { status: "disetujui" } });
    expect((await decide(first.body.id)).status).toBe(200);
    // The conditional UPDATE finds the request no longer waiting, as if another officer had decided it.
    const lost = await withTrigger(
      tenantD1(tenant),
      `skip_visitor_${tenant.slug.replaceAll("-", "_")}`,
      `BEFORE UPDATE ON visitors WHEN OLD.id = '${second.body.id}' BEGIN SELECT RAISE(IGNORE); END`,
      () => decide(second.body.id),
    );
    // The refusal names the moves of the request as it now stands (here still waiting: nobody decided it).
    expectRefusedMove(lost, ["disetujui", "ditolak"]);

    const audit = await callJson<{ items: { action: string; actorId: string; targetId: string }[] }>(
      "/api/audit?limit=100",
      { token: admin.token },
    );
    expect(audit.body.items.filter((e) => e.action.startsWith("visitor."))).toEqual([
      expect.objectContaining({ action: "visitor.approve", actorId: sek.id, targetId: first.body.id }),
    ]);
  });

  it("rejects without a pass, and only staff decide", async () => {
    const tenant = await createTenant();
    const warga = await resident(tenant);
    const sek = await tenant.member("sekretaris");
    const created = await register(warga.token);
    expectProblem(
      await callJson(`/api/visitor/${created.body.id}`, {
        method: "PUT",
        token: warga.token,
        body: { status: "disetujui" },
      }),
      403,
      "forbidden_role",
    );
    const rejected = await callJson<VisitorBody>(`/api/visitor/${created.body.id}`, {
      method: "PUT",
      token: sek.token,
      body: { status: "ditolak", note: "Tidak dikenal" },
    });
    expect(rejected.body).toMatchObject({ status: "ditolak", pass: null, passValidFrom: null });
    expectProblem(
      await call(`/api/visitor/${created.body.id}/qr`, { token: warga.token }).then(async (r) => ({
        status: r.status,
        headers: r.headers,
        body: await r.json(),
      })),
      409,
      "not_approved",
    );
  });

  it("filters by status and by visit day in Asia/Jakarta, inclusive", async () => {
    const tenant = await createTenant();
    const warga = await resident(tenant);
    const sek = await tenant.member("sekretaris");
    const [d5, d6] = [jakartaDayIn(5), jakartaDayIn(6)];
    const late = await register(warga.token, { visitAt: `${d5}T23:30:00+07:00` });
    const early = await register(warga.token, { visitAt: `${d6}T00:30:00+07:00` });
    const day5 = await callJson<{ items: VisitorBody[] }>(`/api/visitor?from=${d5}&to=${d5}`, {
      token: sek.token,
    });
    expect(day5.body.items.map((v) => v.id)).toEqual([late.body.id]);
    const day6 = await callJson<{ items: VisitorBody[] }>(`/api/visitor?from=${d6}&to=${d6}`, {
      token: sek.token,
    });
    expect(day6.body.items.map((v) => v.id)).toEqual([early.body.id]);
    const waiting = await callJson<{ items: VisitorBody[] }>("/api/visitor?status=menunggu", {
      token: sek.token,
    });
    expect(waiting.body.items).toHaveLength(2);
    expectProblem(await callJson("/api/visitor?from=2030-13-01", { token: sek.token }), 400, "invalid_date");
  });

  it("counts guests awaiting approval on the dashboard", async () => {
    const tenant = await createTenant();
    const warga = await resident(tenant);
    const admin = await tenant.member("admin");
    await register(warga.token);
    await register(warga.token);
    const res = await callJson<{ indicators: { key: string; value: number }[] }>(
      "/api/statistik/operasional",
      {
        token: admin.token,
      },
    );
    expect(res.body.indicators.find((i) => i.key === "guestsAwaitingApproval")?.value).toBe(2);
  });
});

describe("the QR pass at the gate", () => {
  it("serves the pass as an SVG QR to its resident and staff", async () => {
    const tenant = await createTenant();
    const { warga, sek, visit } = await approvedVisit(tenant);
    for (const token of [warga.token, sek.token]) {
      const res = await call(`/api/visitor/${visit.id}/qr`, { token });
      expect(res.status).toBe(200);
      expect(res.headers.get("Content-Type")).toBe("image/svg+xml");
      expect(await res.text()).toContain("<svg");
    }
  });

  it("checks in, lists the guest as inside, checks out, and refuses every wrong order", async () => {
    const tenant = await createTenant();
    const { sek, visit } = await approvedVisit(tenant);
    const pass = visit.pass ?? "";
    expectProblem(await gate(sek.token, "out", pass), 409, "not_checked_in");
    const inside = await gate(sek.token, "in", pass);
    expect(inside.status).toBe(200);
    expect(inside.body.checkedInAt).not.toBeNull();
    expectProblem(await gate(sek.token, "in", pass), 409, "already_checked_in");
    const now = await callJson<{ items: VisitorBody[] }>("/api/visitor?inside=true", { token: sek.token });
    expect(now.body.items.map((v) => v.id)).toEqual([visit.id]);
    const out = await gate(sek.token, "out", pass);
    expect(out.body.checkedOutAt).not.toBeNull();
    expectProblem(await gate(sek.token, "out", pass), 409, "already_checked_out");
    expectProblem(await gate(sek.token, "in", pass), 409, "pass_used");
    const after = await callJson<{ items: VisitorBody[] }>("/api/visitor?inside=true", { token: sek.token });
    expect(after.body.items).toEqual([]);
    const record = await callJson<VisitorBody>(`/api/visitor/${visit.id}`, { token: sek.token });
    expect(record.body.status).toBe("disetujui");
  });

  it("checks a pass it verified before again at every scan: its window at that scan's time, its community", async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const { sek, visit } = await approvedVisit(tenant);
    const pass = visit.pass ?? "";
    // Verified once here, and kept by the isolate (pass.ts): what follows is checked from what was kept.
    expect((await gate(sek.token, "in", pass)).status).toBe(200);
    const foreignGuard = await other.member("sekretaris");
    expectProblem(await gate(foreignGuard.token, "out", pass), 400, "foreign_pass");
    setNow(new Date(Date.parse(visit.passValidUntil ?? "") + 1_000));
    expectProblem(await gate(sek.token, "out", pass), 409, "pass_expired");
    setNow(new Date(Date.parse(visit.passValidFrom ?? "") - 1_000));
    expectProblem(await gate(sek.token, "out", pass), 409, "pass_not_yet_valid");
    // A forged pass is never kept: refused at every scan.
    const [header, payload] = pass.split(".");
    for (let i = 0; i < 2; i++) {
      expectProblem(await gate(sek.token, "out", `${header}.${payload}.forged`), 400, "invalid_pass");
    }
  });

  it("refuses forged, altered, expired, early and foreign passes", async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const { sek, visit } = await approvedVisit(tenant);
    const pass = visit.pass ?? "";
    expectProblem(await gate(sek.token, "in", "not-a-pass-at-all"), 400, "invalid_pass");
    const [header, payload, signature] = pass.split(".");
    const claims = JSON.parse(atob((payload ?? "").replace(/-/g, "+").replace(/_/g, "/")));
    const altered = btoa(JSON.stringify({ ...claims, sub: "01HZZZZZZZZZZZZZZZZZZZZZZZ" }))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
    expectProblem(await gate(sek.token, "in", `${header}.${altered}.${signature}`), 400, "invalid_pass");

    const expired = await approvedVisit(tenant, { validFrom: inHours(-5), validUntil: inHours(-1) });
    expectProblem(await gate(sek.token, "in", expired.visit.pass ?? ""), 409, "pass_expired");
    const early = await approvedVisit(tenant, { validFrom: inHours(5), validUntil: inHours(9) });
    expectProblem(await gate(sek.token, "in", early.visit.pass ?? ""), 409, "pass_not_yet_valid");

    const foreignGuard = await other.member("sekretaris");
    expectProblem(await gate(foreignGuard.token, "in", pass), 400, "foreign_pass");
    expectProblem(
      await callJson(`/api/visitor/${visit.id}`, { token: foreignGuard.token }),
      404,
      "not_found",
    );
  });

  it("is switched off with the tamu flag", async () => {
    const tenant = await createTenant();
    const warga = await resident(tenant);
    await callJson(`/api/platform/tenants/${tenant.id}`, {
      method: "PATCH",
      token: await operatorToken(),
      body: { flags: { tamu: false } },
    });
    expectProblem(await register(warga.token), 403, "feature_disabled");
  });
});

describe("the gate guard (satpam, issue 27)", () => {
  it("sees today's guests only, whatever days they ask for, while staff see every day", async () => {
    const tenant = await createTenant();
    const warga = await resident(tenant);
    const satpam = await tenant.member("satpam");
    const sek = await tenant.member("sekretaris");
    setNow(jakartaTime("2026-12-01", 9));
    const today = await register(warga.token, { visitAt: jakartaTime("2026-12-01", 19).toISOString() });
    const later = await register(warga.token, { visitAt: jakartaTime("2026-12-03", 10).toISOString() });
    expect([today.status, later.status]).toEqual([201, 201]);

    const asked = "/api/visitor?from=2026-12-01&to=2026-12-04";
    const guard = await callJson<{ items: VisitorBody[] }>(asked, { token: satpam.token });
    expect(guard.status).toBe(200);
    expect(guard.body.items.map((v) => v.id)).toEqual([today.body.id]);
    const staff = await callJson<{ items: VisitorBody[] }>(asked, { token: sek.token });
    expect(staff.body.items.map((v) => v.id).sort()).toEqual([today.body.id, later.body.id].sort());
  });

  it("at 23:50 WIB also sees the guest announced for 00:20, whose pass is already open, and lets them in", async () => {
    const tenant = await createTenant();
    const warga = await resident(tenant);
    const satpam = await tenant.member("satpam");
    const sek = await tenant.member("sekretaris");
    setNow(new Date(jakartaTime("2026-12-01", 23).getTime() + 50 * 60_000));
    const soon = await register(warga.token, {
      visitAt: new Date(jakartaTime("2026-12-02", 0).getTime() + 20 * 60_000).toISOString(),
    });
    const tomorrow = await register(warga.token, { visitAt: jakartaTime("2026-12-02", 10).toISOString() });
    expect([soon.status, tomorrow.status]).toEqual([201, 201]);
    const approved = await callJson<VisitorBody>(`/api/visitor/${soon.body.id}`, {
      method: "PUT",
      token: sek.token,
      body: { status: "disetujui" },
    });
    expect(approved.status).toBe(200);

    const guard = await callJson<{ items: VisitorBody[] }>("/api/visitor", { token: satpam.token });
    expect(guard.body.items.map((v) => v.id)).toEqual([soon.body.id]);
    const inside = await callJson("/api/visitor/gate/check-in", {
      token: satpam.token,
      body: { qr: approved.body.pass },
    });
    expect(inside.status).toBe(200);
  });

  it("checks a guest in and out, and reaches no registry, finance or decision route", async () => {
    const tenant = await createTenant();
    const { visit } = await approvedVisit(tenant);
    const satpam = await tenant.member("satpam");
    expect((await gate(satpam.token, "in", visit.pass ?? "")).status).toBe(200);
    expect((await gate(satpam.token, "out", visit.pass ?? "")).status).toBe(200);
    for (const path of ["/api/kependudukan/kk", "/api/kas", "/api/iuran/mine", "/api/surat/mine"]) {
      expectProblem(await callJson(path, { token: satpam.token }), 403, "forbidden_role");
    }
    expectProblem(
      await callJson(`/api/visitor/${visit.id}`, {
        method: "PUT",
        token: satpam.token,
        body: { status: "ditolak" },
      }),
      403,
      "forbidden_role",
    );
  });
});

describe("the gate as it is (issue 45)", () => {
  interface WalkInBody extends VisitorBody {
    walkIn: boolean;
    category: string | null;
    approvalMethod: string | null;
    multiEntry: boolean;
    regularId: string | null;
  }

  /** A registered house with one resident account (the host) and the community's guard. */
  async function gateWithHost(tenant: TestTenant) {
    const sek = await tenant.member("sekretaris");
    unitSeq += 1;
    const number = String(100 + unitSeq);
    const unit = await callJson<{ id: string }>("/api/kependudukan/units", {
      token: sek.token,
      body: { block: "D", number },
    });
    expect(unit.status).toBe(201);
    const host = await tenant.member("warga", {
      unitId: unit.body.id,
      whatsapp: `62813${String(unitSeq).padStart(7, "0")}`,
    });
    const satpam = await tenant.member("satpam");
    return { sek, host, satpam, number, unitId: unit.body.id };
  }

  const walkIn = (token: string, body: Record<string, unknown>) =>
    callJson<WalkInBody>("/api/visitor/gate/walk-in", { token, body });
  const byId = (token: string, direction: "in" | "out", visitorId: string) =>
    callJson<{ visitorId: string; checkedInAt: string | null; checkedOutAt: string | null }>(
      `/api/visitor/gate/check-${direction}`,
      { token, body: { visitorId } },
    );

  it("the guard registers a walk-in; the host's household sees it waiting, is told, and approves it from their phone", async () => {
    const tenant = await createTenant();
    const { host, satpam, number, unitId } = await gateWithHost(tenant);
    const neighbour = await resident(tenant);
    const created = await walkIn(satpam.token, {
      guestName: "Bayu (Gojek)",
      category: "ojol",
      vehiclePlate: "b 4321 kjt",
      block: "d",
      number,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: "menunggu",
      walkIn: true,
      category: "ojol",
      purpose: "Ojek online",
      vehiclePlate: "B 4321 KJT",
      unitId,
    });
    const id = created.body.id;
    const [told] = await queuedMessages({ recipient: host.email });
    expect(JSON.stringify(told?.payload)).toContain("menunggu di gerbang");

    // The host's list carries it; a neighbour neither lists, reads nor answers it.
    const mine = await callJson<{ items: WalkInBody[] }>("/api/visitor/mine", { token: host.token });
    expect(mine.body.items.map((v) => [v.id, v.status, v.walkIn])).toEqual([[id, "menunggu", true]]);
    const theirs = await callJson<{ items: WalkInBody[] }>("/api/visitor/mine", { token: neighbour.token });
    expect(theirs.body.items).toEqual([]);
    expectProblem(await callJson(`/api/visitor/${id}`, { token: neighbour.token }), 404, "not_found");
    const answer = (token: string, body: unknown) =>
      callJson<WalkInBody>(`/api/visitor/${id}/tuan-rumah`, { token, body });
    expectProblem(await answer(neighbour.token, { status: "disetujui" }), 404, "not_found");
    expectProblem(await answer(host.token, { status: "mungkin" }), 400, "invalid_input");
    // Not yet approved: the guard cannot let them in.
    expectProblem(await byId(satpam.token, "in", id), 409, "not_approved");

    const approved = await answer(host.token, { status: "disetujui" });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      status: "disetujui",
      approvalMethod: "tuan_rumah",
      multiEntry: false,
    });
    expectProblem(await answer(host.token, { status: "ditolak" }), 409, "invalid_transition");

    // No pass in the guest's hand: the guard lets them in from the list, and out again.
    expect((await byId(satpam.token, "in", id)).status).toBe(200);
    const inside = await callJson<{ items: WalkInBody[] }>("/api/visitor?inside=true", {
      token: satpam.token,
    });
    expect(inside.body.items.map((v) => v.id)).toEqual([id]);
    expect((await byId(satpam.token, "out", id)).status).toBe(200);
    expectProblem(await byId(satpam.token, "in", id), 409, "pass_used");
  });

  it("the guard approves after calling the host, recorded as such; refuses bad input, wrong duty and another community", async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const { host, satpam, number } = await gateWithHost(tenant);
    const admin = await tenant.member("admin");
    const foreignGuard = await other.member("satpam");

    expectProblem(
      await walkIn(satpam.token, { guestName: "X", category: "ojol", block: "D", number }),
      400,
      "invalid_input",
    );
    expectProblem(
      await walkIn(satpam.token, { guestName: "Kurir JNE", category: "maling", block: "D", number }),
      400,
      "invalid_input",
    );
    expectProblem(
      await walkIn(satpam.token, { guestName: "Kurir JNE", category: "kurir", block: "Z", number: "999" }),
      422,
      "unknown_house",
    );
    // A registered house where nobody has an account: staff decide.
    const sek = await tenant.member("sekretaris");
    await callJson("/api/kependudukan/units", { token: sek.token, body: { block: "D", number: "900" } });
    expectProblem(
      await walkIn(satpam.token, { guestName: "Kurir JNE", category: "kurir", block: "D", number: "900" }),
      422,
      "no_host",
    );
    expectProblem(
      await walkIn(host.token, { guestName: "Kurir JNE", category: "kurir", block: "D", number }),
      403,
      "forbidden_role",
    );
    // Another community's guard finds no such house.
    expectProblem(
      await walkIn(foreignGuard.token, { guestName: "Kurir JNE", category: "kurir", block: "D", number }),
      422,
      "unknown_house",
    );

    const created = await walkIn(satpam.token, {
      guestName: "Kurir JNE",
      category: "kurir",
      purpose: "Antar paket",
      block: "D",
      number,
    });
    const id = created.body.id;
    const phone = (token: string) => callJson<WalkInBody>(`/api/visitor/${id}/telepon`, { token, body: {} });
    expectProblem(await phone(host.token), 403, "forbidden_role");
    expectProblem(await phone(foreignGuard.token), 404, "not_found");
    expectProblem(await byId(foreignGuard.token, "in", id), 404, "not_found");
    const approved = await phone(satpam.token);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: "disetujui", approvalMethod: "telepon", walkIn: true });
    expectProblem(await phone(satpam.token), 409, "invalid_transition");

    // A resident's own registration is not the guard's to approve, nor enters without its pass, nor the
    // host's to decide.
    const own = await register(host.token, { visitAt: inHours(0.5) });
    expectProblem(
      await callJson(`/api/visitor/${own.body.id}/telepon`, { token: satpam.token, body: {} }),
      400,
      "not_walk_in",
    );
    expectProblem(
      await callJson(`/api/visitor/${own.body.id}/tuan-rumah`, {
        token: host.token,
        body: { status: "disetujui" },
      }),
      409,
      "not_walk_in",
    );
    await callJson(`/api/visitor/${own.body.id}`, {
      method: "PUT",
      token: sek.token,
      body: { status: "disetujui" },
    });
    expectProblem(await byId(satpam.token, "in", own.body.id), 400, "not_walk_in");

    const audit = await callJson<{
      items: { action: string; actorId: string; targetId: string; detail: unknown }[];
    }>("/api/audit?limit=100", { token: admin.token });
    expect(
      audit.body.items.filter((e) => e.targetId === id).map((e) => [e.action, e.actorId, e.detail]),
    ).toEqual(
      expect.arrayContaining([
        ["visitor.walk_in", satpam.id, null],
        ["visitor.approve", satpam.id, { method: "telepon" }],
      ]),
    );
  });

  it("a stay of several days goes out and in again within its pass, each passage recorded; the guard sees who is inside whatever day they came", async () => {
    const tenant = await createTenant();
    const warga = await resident(tenant);
    const sek = await tenant.member("sekretaris");
    const satpam = await tenant.member("satpam");
    expectProblem(
      await register(warga.token, { visitAt: inHours(0.5), stayUntil: jakartaDayIn(40) }),
      400,
      "stay_too_long",
    );
    expectProblem(
      await register(warga.token, { visitAt: inHours(30), stayUntil: jakartaDayIn(0) }),
      400,
      "stay_too_long",
    );
    const last = jakartaDayIn(2);
    const created = await register(warga.token, { visitAt: inHours(0.5), stayUntil: last });
    const approved = await callJson<WalkInBody>(`/api/visitor/${created.body.id}`, {
      method: "PUT",
      token: sek.token,
      body: { status: "disetujui" },
    });
    expect(approved.body).toMatchObject({ multiEntry: true, passValidUntil: `${last}T16:59:59.000Z` });
    const pass = approved.body.pass ?? "";
    expect((await gate(satpam.token, "in", pass)).status).toBe(200);
    expect((await gate(satpam.token, "out", pass)).status).toBe(200);
    const again = await gate(satpam.token, "in", pass);
    expect(again.status).toBe(200);
    expect(again.body.checkedOutAt).toBeNull();
    expectProblem(await gate(satpam.token, "in", pass), 409, "already_checked_in");
    const passages = await tenantD1(tenant)
      .prepare("SELECT direction FROM visitor_passages WHERE visitor_id = ? ORDER BY at")
      .bind(created.body.id)
      .all<{ direction: string }>();
    expect(passages.results.map((p) => p.direction)).toEqual(["in", "out", "in"]);

    // The next day: still inside, on the guard's list of who is inside (not on today's guests).
    setNow(jakartaTime(jakartaDayIn(1), 10));
    const inside = await callJson<{ items: VisitorBody[] }>("/api/visitor?inside=true", {
      token: satpam.token,
    });
    expect(inside.body.items.map((v) => v.id)).toEqual([created.body.id]);
    const today = await callJson<{ items: VisitorBody[] }>("/api/visitor", { token: satpam.token });
    expect(today.body.items).toEqual([]);

    // After the stay: the guard still lets them out from the list, but the pass opens the gate no more.
    setNow(jakartaTime(jakartaDayIn(3), 10));
    expect((await byId(satpam.token, "out", created.body.id)).status).toBe(200);
    expectProblem(await gate(satpam.token, "in", pass), 409, "pass_expired");
  });
  it("a regular visitor's card admits inside its windows (Asia/Jakarta) and says why not outside them, until revoked", async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const warga = await resident(tenant);
    const neighbour = await resident(tenant);
    const satpam = await tenant.member("satpam");
    const sek = await tenant.member("sekretaris");
    const foreignGuard = await other.member("satpam");
    const issue = (token: string, body: Record<string, unknown>) =>
      callJson<{ id: string; days: number[]; admittedNow: boolean }>("/api/visitor/regular", { token, body });
    const card = {
      name: "Mbak Sri",
      role: "art",
      days: [5, 1, 2, 3, 4],
      fromTime: "07:00",
      untilTime: "17:00",
    };
    expectProblem(await issue(warga.token, { ...card, untilTime: "06:00" }), 400, "invalid_input");
    expectProblem(await issue(warga.token, { ...card, days: [0] }), 400, "invalid_input");
    expectProblem(await issue(warga.token, { ...card, days: [1, 1] }), 400, "invalid_input");
    expectProblem(await issue(warga.token, { ...card, fromTime: "7 pagi" }), 400, "invalid_input");
    expectProblem(await issue(satpam.token, card), 403, "forbidden_role");
    const issued = await issue(warga.token, card);
    expect(issued.status).toBe(201);
    expect(issued.body.days).toEqual([1, 2, 3, 4, 5]);
    const id = issued.body.id;
    const enter = (token: string) =>
      callJson<{ visitorId: string; guestName: string }>(`/api/visitor/regular/${id}/check-in`, {
        token,
        body: {},
        headers: ENGLISH,
      });

    // 2026-12-05 is a Saturday: no window that day.
    setNow(jakartaTime("2026-12-05", 9));
    const saturday = await enter(satpam.token);
    expectProblem(saturday, 409, "outside_window");
    expect((saturday.body as unknown as { detail: string }).detail).toContain("07:00–17:00 WIB");
    // Monday before seven WIB (06:30 in Jakarta, 23:30 UTC the day before): still outside.
    setNow(new Date(jakartaTime("2026-12-07", 6).getTime() + 30 * 60_000));
    expectProblem(await enter(satpam.token), 409, "outside_window");
    setNow(jakartaTime("2026-12-07", 8));
    expectProblem(await enter(foreignGuard.token), 404, "not_found");
    const entered = await enter(satpam.token);
    expect(entered.status).toBe(200);
    expect(entered.body.guestName).toBe("Mbak Sri");
    expectProblem(await enter(satpam.token), 409, "already_checked_in");
    const inside = await callJson<{ items: WalkInBody[] }>("/api/visitor?inside=true", {
      token: satpam.token,
    });
    expect(inside.body.items.map((v) => [v.id, v.regularId])).toEqual([[entered.body.visitorId, id]]);
    expect((await byId(satpam.token, "out", entered.body.visitorId)).status).toBe(200);

    // The guard lists the card; the household lists its own, a neighbour none, and only they or staff revoke.
    const gateList = await callJson<{ items: { id: string; admittedNow: boolean }[] }>(
      "/api/visitor/regular",
      {
        token: satpam.token,
      },
    );
    expect(gateList.body.items).toEqual([expect.objectContaining({ id, admittedNow: true })]);
    const theirs = await callJson<{ items: unknown[] }>("/api/visitor/regular", { token: neighbour.token });
    expect(theirs.body.items).toEqual([]);
    const revoke = (token: string) => callJson(`/api/visitor/regular/${id}/cabut`, { token, body: {} });
    expectProblem(await revoke(neighbour.token), 404, "not_found");
    expectProblem(await revoke(satpam.token), 403, "forbidden_role");
    expect((await revoke(warga.token)).status).toBe(200);
    expectProblem(await enter(satpam.token), 409, "pass_revoked");
    expect((await revoke(sek.token)).status).toBe(200);
    const afterRevoke = await callJson<{ items: unknown[] }>("/api/visitor/regular", { token: satpam.token });
    expect(afterRevoke.body.items).toEqual([]);
  });

  const imageForm = (bytes: Uint8Array, name = "foto.png", type = "image/png") => {
    const form = new FormData();
    form.set("file", new File([bytes], name, { type }));
    return form;
  };

  it("the guard photographs a walk-in: the gate, staff and the host see it, a neighbour and another community do not", async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const { sek, host, satpam, number } = await gateWithHost(tenant);
    const neighbour = await resident(tenant);
    const foreignGuard = await other.member("satpam");
    const created = await walkIn(satpam.token, {
      guestName: "Kurir JNE",
      category: "kurir",
      block: "D",
      number,
    });
    expect(created.status).toBe(201);
    expect((created.body as unknown as { photoUrl: string | null }).photoUrl).toBeNull();
    const id = created.body.id;
    const attach = (token: string, form: FormData) =>
      callJson<{ photoUrl: string | null }>(`/api/visitor/${id}/foto`, { token, body: form });
    const photo = (token: string) => call(`/api/visitor/${id}/foto`, { token });

    // No photo yet: 404 for everyone, the gate included.
    expectProblem(await callJson(`/api/visitor/${id}/foto`, { token: satpam.token }), 404, "file_not_found");
    // Not an image, too large, not a walk-in, not the guard's duty, another community: refused.
    const html = new TextEncoder().encode("<!doctype html><script>alert(1)</script>");
    expectProblem(await attach(satpam.token, imageForm(html, "x.png")), 415, "unsupported_image_type");
    const big = new Uint8Array(MAX_IMAGE_BYTES + 1);
    big.set(CLEAN_PNG);
    expectProblem(await attach(satpam.token, imageForm(big)), 413, "file_too_large");
    expectProblem(await attach(host.token, imageForm(CLEAN_PNG)), 403, "forbidden_role");
    expectProblem(await attach(foreignGuard.token, imageForm(CLEAN_PNG)), 404, "not_found");
    const own = await register(host.token);
    expectProblem(
      await callJson(`/api/visitor/${own.body.id}/foto`, { token: satpam.token, body: imageForm(CLEAN_PNG) }),
      400,
      "not_walk_in",
    );

    const attached = await attach(satpam.token, imageForm(CLEAN_PNG));
    expect(attached.status).toBe(200);
    expect(attached.body.photoUrl).toMatch(new RegExp(`/api/visitor/${id}/foto$`));
    for (const reader of [satpam, sek, host]) {
      const res = await photo(reader.token);
      expect(res.status).toBe(200);
      expect(res.headers.get("Content-Type")).toBe("image/png");
      await res.arrayBuffer();
    }
    // The host's list carries the photo's address; a neighbour and another community's guard get 404.
    const mine = await callJson<{ items: { id: string; photoUrl: string | null }[] }>("/api/visitor/mine", {
      token: host.token,
    });
    expect(mine.body.items.find((v) => v.id === id)?.photoUrl).toBe(attached.body.photoUrl);
    expectProblem(await callJson(`/api/visitor/${id}/foto`, { token: neighbour.token }), 404, "not_found");
    expectProblem(await callJson(`/api/visitor/${id}/foto`, { token: foreignGuard.token }), 404, "not_found");

    // A second photo replaces the first.
    expect((await attach(satpam.token, imageForm(CLEAN_JPEG, "foto.jpg", "image/jpeg"))).status).toBe(200);
    const replaced = await photo(host.token);
    expect(replaced.headers.get("Content-Type")).toBe("image/jpeg");
    await replaced.arrayBuffer();
    const files = await tenantD1(tenant)
      .prepare("SELECT COUNT(*) AS n FROM files WHERE purpose = 'tamu'")
      .first<{ n: number }>();
    expect(files?.n).toBe(1);
  });

  it("staff issue a regular visitor's card for a household they name; a resident only for their own house", async () => {
    const tenant = await createTenant();
    const { sek, host, satpam, number, unitId } = await gateWithHost(tenant);
    const neighbour = await resident(tenant);
    const bendahara = await tenant.member("bendahara");
    const card = { name: "Pak Darto", role: "sopir", days: [1, 3, 5], fromTime: "06:00", untilTime: "09:00" };
    const issue = (token: string, body: Record<string, unknown>) =>
      callJson<{ id: string; unitId: string; residentId: string }>("/api/visitor/regular", { token, body });

    expectProblem(await issue(sek.token, { ...card, block: "D" }), 400, "invalid_input");
    expectProblem(await issue(sek.token, { ...card, block: "Z", number: "999" }), 422, "unknown_house");
    expectProblem(await issue(neighbour.token, { ...card, block: "D", number }), 403, "forbidden");
    expectProblem(await issue(satpam.token, { ...card, block: "D", number }), 403, "forbidden_role");
    const issued = await issue(sek.token, { ...card, block: "d", number });
    expect(issued.status).toBe(201);
    expect(issued.body).toMatchObject({ unitId, residentId: host.id });
    expect((await issue(bendahara.token, { ...card, block: "D", number })).status).toBe(201);
    // The household lists the card as its own and may revoke it; a neighbour sees none of it.
    const theirs = await callJson<{ items: { id: string }[] }>("/api/visitor/regular", { token: host.token });
    expect(theirs.body.items.map((c) => c.id)).toContain(issued.body.id);
    const neighbours = await callJson<{ items: unknown[] }>("/api/visitor/regular", {
      token: neighbour.token,
    });
    expect(neighbours.body.items).toEqual([]);
    const revoked = await callJson(`/api/visitor/regular/${issued.body.id}/cabut`, {
      token: host.token,
      body: {},
    });
    expect(revoked.status).toBe(200);
  });
});
