import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { memberships, oneTimeTokens, users } from "../../../src/core/db/identity-schema";
import { platformDb } from "../../../src/core/db/platform";
import { newId, sha256Hex } from "../../../src/core/ids";
import { auditTrail } from "../../helpers/contexts";
import { bindings, callJson, createTenant, expectProblem, insertUser, PASSWORD } from "../../helpers/harness";
import { queuedMessages } from "../../helpers/notify";
import { phoneSpellings } from "../../helpers/phone";
import { tokenIn } from "../identity/helpers";
import { openPoll, vote } from "../musyawarah/helpers";
import { household } from "../surat/helpers";
import {
  allMembers,
  invite,
  linkPerson,
  listMembers,
  type MemberBody,
  nextPhone,
  removeMember,
  setRoles,
  signIn,
  soleAdmin,
} from "./helpers";

describe("the member list", () => {
  it("lists members with their duties, residency, house and status, filtered by duty, residency and text", async () => {
    const tenant = await createTenant();
    const h = await household(tenant);
    const guard = await tenant.member("satpam");
    const treasurer = await tenant.member("bendahara", { unitId: h.unitId });
    const invited = nextPhone();
    expect(
      (await invite(h.admin.token, { name: "Satria Jaga", whatsapp: invited.typed, roles: ["satpam"] }))
        .status,
    ).toBe(202);
    await platformDb(bindings).update(users).set({ status: "disabled" }).where(eq(users.id, guard.id));

    const all = await allMembers(h.admin.token);
    const byId = new Map(all.map((m) => [m.userId, m]));
    expect(byId.get(h.warga.id)).toMatchObject({
      email: h.warga.email,
      roles: [],
      resident: true,
      status: "aktif",
      unitId: h.unitId,
      unit: { id: h.unitId, block: "C" },
      personId: h.headMemberId,
      joinedAt: expect.any(String),
    });
    expect(byId.get(h.sek.id)).toMatchObject({ roles: ["sekretaris"], resident: false, unit: null });
    expect(byId.get(treasurer.id)).toMatchObject({ roles: ["bendahara"], resident: true });
    expect(byId.get(guard.id)).toMatchObject({ roles: ["satpam"], resident: false, status: "nonaktif" });
    expect(all.find((m) => m.whatsapp === invited.stored)).toMatchObject({
      name: "Satria Jaga",
      roles: ["satpam"],
      status: "diundang",
    });

    const ids = async (query: string) => (await allMembers(h.admin.token, query)).map((m) => m.userId).sort();
    expect(await ids("?role=bendahara")).toEqual([treasurer.id]);
    const residents = await ids("?role=warga");
    expect(residents).toEqual(expect.arrayContaining([h.warga.id, treasurer.id]));
    expect(residents).not.toContain(h.sek.id);
    expect(residents).not.toContain(guard.id);
    expect(await ids(`?q=${encodeURIComponent(treasurer.email.toUpperCase())}`)).toEqual([treasurer.id]);
    // A number typed as the resident would (08…) finds the stored 628… one.
    const stored = byId.get(h.warga.id)?.whatsapp ?? "";
    expect(stored).toMatch(/^628/);
    expect(await ids(`?q=0${stored.slice(2)}`)).toEqual([h.warga.id]);
    // Issue 49: typed with dashes, spaces or the country code, whole or only its start (ADR 0047).
    for (const typed of phoneSpellings(stored)) {
      expect(await ids(`?q=${encodeURIComponent(typed)}`), typed).toEqual([h.warga.id]);
      expect(await ids(`?q=${encodeURIComponent(typed.slice(0, 9))}`), typed.slice(0, 9)).toContain(
        h.warga.id,
      );
    }
    // LIKE's wildcards are taken literally.
    expect(await ids("?q=%25")).toEqual([]);
    expect(await ids("?q=_")).toEqual([]);
  });

  it("pages in the order members joined, every member once", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    for (let i = 0; i < 4; i++) {
      await tenant.member("warga");
    }
    const first = await listMembers(admin.token, "?limit=2");
    expect(first.body.items).toHaveLength(2);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const all = await allMembers(admin.token, "?limit=2");
    expect(new Set(all.map((m) => m.userId)).size).toBe(all.length);
    expect(all.length).toBeGreaterThanOrEqual(5);
    expect(all.slice(0, 2)).toEqual(first.body.items);
    expectProblem(await listMembers(admin.token, "?role=super_admin"), 400, "invalid_input");
  });

  it("shows contact whole to the admin and masked to other staff; residents and guards may not read it", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const treasurer = await tenant.member("bendahara");
    const sek = await tenant.member("sekretaris");
    const phone = nextPhone();
    const resident = await tenant.member("warga", { unitId: "unit-kontak", whatsapp: phone.stored });
    const whole = (await allMembers(admin.token)).find((m) => m.userId === resident.id);
    expect(whole).toMatchObject({ email: resident.email, whatsapp: phone.stored });
    for (const staff of [treasurer, sek]) {
      const seen = (await allMembers(staff.token)).find((m) => m.userId === resident.id);
      expect(seen?.email).toBe(`${resident.email.slice(0, 1)}***@warga.test`);
      expect(seen?.whatsapp).toBe(
        `${phone.stored.slice(0, 4)}${"*".repeat(phone.stored.length - 6)}${phone.stored.slice(-2)}`,
      );
      expect(JSON.stringify(seen)).not.toContain(resident.email);
    }
    expectProblem(await listMembers(resident.token), 403, "forbidden_role");
    expectProblem(await listMembers((await tenant.member("satpam")).token), 403, "forbidden_role");
  });
});

describe("setting duties", () => {
  it("sets several duties at once, audited, and the member holds them at their next sign-in", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const resident = await tenant.member("warga", { unitId: "unit-ketua" });
    const res = await setRoles(admin.token, resident.id, ["bendahara", "admin"]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ userId: resident.id, roles: ["bendahara", "admin"], resident: true });
    const session = await signIn(resident.email, tenant.slug);
    expect(session.user).toMatchObject({ roles: ["bendahara", "admin"], resident: true });
    const trail = await auditTrail(admin.token, "action=member.roles");
    expect(trail).toEqual([
      expect.objectContaining({ targetId: resident.id, detail: { from: [], to: ["bendahara", "admin"] } }),
    ]);
    // The same duties again change nothing and record nothing.
    expect((await setRoles(admin.token, resident.id, ["admin", "bendahara"])).status).toBe(200);
    expect(await auditTrail(admin.token, "action=member.roles")).toHaveLength(1);
  });

  it("refuses unknown, platform and resident roles and a duty named twice (400)", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const member = await tenant.member("sekretaris");
    for (const roles of [["ketua"], ["super_admin"], ["warga"], ["admin", "admin"], "admin", null]) {
      expectProblem(await setRoles(admin.token, member.id, roles), 400, "invalid_input");
    }
    expectProblem(
      await callJson(`/api/members/${member.id}/roles`, { method: "PUT", token: admin.token, body: {} }),
      400,
      "invalid_input",
    );
  });

  it("answers 404 for someone not in this community: another community's member, and to another community's admin", async () => {
    const tenantA = await createTenant();
    const tenantB = await createTenant();
    const adminA = await tenantA.member("admin");
    const adminB = await tenantB.member("admin");
    const memberA = await tenantA.member("sekretaris");
    const memberB = await tenantB.member("sekretaris");
    expectProblem(await setRoles(adminA.token, memberB.id, ["bendahara"]), 404, "not_found");
    expectProblem(await setRoles(adminB.token, memberA.id, ["bendahara"]), 404, "not_found");
    expectProblem(await setRoles(adminA.token, newId(), ["bendahara"]), 404, "not_found");
    expectProblem(await removeMember(adminB.token, memberA.id), 404, "not_found");
    expectProblem(await linkPerson(adminB.token, memberA.id, null), 404, "not_found");
    const stillA = await platformDb(bindings)
      .select()
      .from(memberships)
      .where(eq(memberships.userId, memberA.id));
    expect(stillA).toEqual([expect.objectContaining({ tenantId: tenantA.id, roles: ["sekretaris"] })]);
  });

  it("refuses to leave a member with no duty and no house (409 not_resident); one with a house becomes a plain resident", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const guard = await tenant.member("satpam");
    expectProblem(await setRoles(admin.token, guard.id, []), 409, "not_resident");
    const treasurer = await tenant.member("bendahara", { unitId: "unit-bendahara" });
    const res = await setRoles(admin.token, treasurer.id, []);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ roles: [], resident: true });
  });

  it("refuses to take the duty from the last admin (409 last_admin) and allows it once another admin is appointed", async () => {
    const tenant = await createTenant();
    const admin = await soleAdmin(tenant, { unitId: "unit-ketua" });
    expectProblem(await setRoles(admin.token, admin.id, ["sekretaris"]), 409, "last_admin");
    expect(await allMembers(admin.token, "?role=admin")).toEqual([
      expect.objectContaining({ userId: admin.id }),
    ]);
    const next = await tenant.member("sekretaris", { unitId: "unit-ketua-baru" });
    expect((await setRoles(admin.token, next.id, ["sekretaris", "admin"])).status).toBe(200);
    const stepDown = await setRoles(admin.token, admin.id, []);
    expect(stepDown.status).toBe(200);
    expect(stepDown.body).toMatchObject({ roles: [], resident: true });
  });
});

/** The claims of an access token (only read here: the API verified it). */
function claimsOf(token: string | null): Record<string, unknown> {
  const payload = (token ?? "").split(".")[1] ?? "";
  return JSON.parse(atob(payload.replaceAll("-", "+").replaceAll("_", "/")));
}

const FRESH = "X-Warga-Access-Token";

describe("tokens that stay current (issue 45, ADR 0043)", () => {
  it("a duty taken away is refused on the member's next request, who stays signed in with what is left", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const sek = await tenant.member("sekretaris", { unitId: "unit-sek" });
    expect((await listMembers(sek.token)).status).toBe(200);
    expect((await setRoles(admin.token, sek.id, [])).status).toBe(200);
    const refused = await listMembers(sek.token);
    expectProblem(refused, 403, "forbidden_role");
    // Still signed in, as the resident they remain: their own profile answers, with a token saying so.
    const me = await callJson("/api/user/me", { token: sek.token });
    expect(me.status).toBe(200);
    expect(claimsOf(me.headers.get(FRESH))).toMatchObject({ roles: [], resident: true, mv: 2 });
    expect(me.headers.get("Cache-Control")).toBe("no-store");
  });

  it("a duty given is allowed on the member's next request, without signing in again; the answer carries the new token", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const resident = await tenant.member("warga", { unitId: "unit-promosi" });
    const session = await signIn(resident.email, tenant.slug);
    expectProblem(await listMembers(session.accessToken), 403, "forbidden_role");
    expect((await setRoles(admin.token, resident.id, ["bendahara"])).status).toBe(200);
    const allowed = await listMembers(session.accessToken);
    expect(allowed.status).toBe(200);
    const fresh = allowed.headers.get(FRESH);
    const before = claimsOf(session.accessToken);
    // The same sign-in, ending when the token it restates ends: only a refresh extends a session.
    expect(claimsOf(fresh)).toMatchObject({
      roles: ["bendahara"],
      resident: true,
      sid: before.sid,
      mid: before.mid,
      exp: before.exp,
    });
    expect((await listMembers(fresh ?? "")).headers.get(FRESH)).toBeNull();
    // The refresh agrees.
    const refreshed = await callJson<{ user: { roles: string[] } }>("/api/auth/refresh", {
      body: { refreshToken: session.refreshToken },
    });
    expect(refreshed.body.user.roles).toEqual(["bendahara"]);
  });

  it("the ketua who sets his own house gets a token saying so in that answer, and votes in a household poll with the old one", async () => {
    const tenant = await createTenant();
    const ketua = await tenant.member("admin");
    const unit = await callJson<{ id: string }>("/api/kependudukan/units", {
      token: ketua.token,
      body: { block: "K", number: "1" },
    });
    expect(unit.status).toBe(201);
    const set = await callJson<MemberBody>(`/api/members/${ketua.id}/unit`, {
      method: "PUT",
      token: ketua.token,
      body: { unitId: unit.body.id },
    });
    expect(set.status).toBe(200);
    expect(claimsOf(set.headers.get(FRESH))).toMatchObject({ roles: ["admin"], resident: true });
    const { poll } = await openPoll(tenant, { voterScope: "kk" });
    // Before issue 45: 403 forbidden_role until he signed in again.
    expect((await vote(ketua.token, poll.id, [poll.options[0]?.id ?? ""])).status).toBe(200);
  });

  it("a house staff grant to an officer who had none opens the household ballot on their next request", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const treasurer = await tenant.member("bendahara");
    const { poll } = await openPoll(tenant, { voterScope: "kk" });
    const option = [poll.options[0]?.id ?? ""];
    expectProblem(await vote(treasurer.token, poll.id, option), 403, "forbidden_role");
    const unit = await callJson<{ id: string }>("/api/kependudukan/units", {
      token: sek.token,
      body: { block: "K", number: "2" },
    });
    const set = await callJson(`/api/members/${treasurer.id}/unit`, {
      method: "PUT",
      token: sek.token,
      body: { unitId: unit.body.id },
    });
    expect(set.status).toBe(200);
    // The secretary changed someone else: their own token is not restated.
    expect(set.headers.get(FRESH)).toBeNull();
    const next = (await openPoll(tenant, { voterScope: "kk" })).poll;
    expect((await vote(treasurer.token, next.id, [next.options[0]?.id ?? ""])).status).toBe(200);
  });

  it("a removed member's old token is refused on their next request", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const resident = await tenant.member("warga", { unitId: "unit-pergi" });
    expect((await removeMember(admin.token, resident.id)).status).toBe(204);
    expectProblem(await callJson("/api/user/me", { token: resident.token }), 401, "session_revoked");
  });

  it("a change in one community never touches the same person's token in another", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const adminA = await a.member("admin");
    const person = await a.member("warga", { unitId: "unit-a" });
    await platformDb(bindings)
      .insert(memberships)
      .values({ id: newId(), userId: person.id, tenantId: b.id, roles: [], unitId: "unit-b" });
    const inB = await signIn(person.email, b.slug);
    expect((await setRoles(adminA.token, person.id, ["bendahara"])).status).toBe(200);
    expect((await listMembers(person.token)).status).toBe(200);
    const inBAfter = await listMembers(inB.accessToken);
    expectProblem(inBAfter, 403, "forbidden_role");
    expect(inBAfter.headers.get(FRESH)).toBeNull();
    expect((await callJson("/api/user/me", { token: inB.accessToken })).headers.get(FRESH)).toBeNull();
  });
});

describe("inviting members", () => {
  it("invites a new account with a set-password link naming the duty; the answer is 202 and carries no token", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const phone = nextPhone();
    const res = await invite(admin.token, { name: "Satria Jaga", whatsapp: phone.typed, roles: ["satpam"] });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ invitation: { channel: "whatsapp", sent: true } });
    const [message] = await queuedMessages({ recipient: phone.stored });
    expect(message?.channel).toBe("whatsapp");
    expect(JSON.stringify(message?.payload)).toContain("satpam");
    const token = tokenIn(message ?? ({ payload: {} } as never));
    expect(JSON.stringify(res.body)).not.toContain(token);
    expect((await allMembers(admin.token)).find((m) => m.whatsapp === phone.stored)?.status).toBe("diundang");

    expect(
      (await callJson("/api/auth/reset-password", { body: { token, password: "sandi-satpam-1" } })).status,
    ).toBe(204);
    const login = await callJson<{ user: { roles: string[]; resident: boolean } }>("/api/auth/login", {
      body: { whatsapp: phone.typed, password: "sandi-satpam-1" },
    });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ roles: ["satpam"], resident: false });
    expect((await allMembers(admin.token)).find((m) => m.whatsapp === phone.stored)?.status).toBe("aktif");
    const trail = await auditTrail(admin.token, "action=member.invite");
    expect(trail).toEqual([expect.objectContaining({ detail: { roles: ["satpam"], unitId: null } })]);
  });

  it("sends an existing account a join link and enrols nobody; once accepted the duties and the house are theirs", async () => {
    const tenant = await createTenant();
    const h = await household(tenant);
    const existing = await insertUser({ name: "Bu Ani" });
    const res = await invite(h.admin.token, {
      name: "Ani Bendahara",
      email: existing.email,
      roles: ["bendahara"],
      unitId: h.unitId,
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ invitation: { channel: "email", sent: true } });
    expect((await allMembers(h.admin.token)).map((m) => m.userId)).not.toContain(existing.id);
    expect(await queuedMessages({ recipient: existing.email, template: "WELCOME" })).toEqual([]);
    const [link] = await queuedMessages({ recipient: existing.email });
    expect(JSON.stringify(link?.payload)).toContain("/join?token=");
    const token = tokenIn(link ?? ({ payload: {} } as never));
    expect(JSON.stringify(res.body)).not.toContain(token);

    const accepted = await callJson("/api/auth/join/accept", { body: { token } });
    expect(accepted.status).toBe(200);
    expect((await allMembers(h.admin.token)).find((m) => m.userId === existing.id)).toMatchObject({
      roles: ["bendahara"],
      resident: true,
      unitId: h.unitId,
    });
  });

  it("never enrols the account that only claimed the invited number (issue 44, P1): the real holder gets a new account", async () => {
    const rt01 = await createTenant();
    const rt02 = await createTenant();
    const admin = await rt01.member("admin");
    const phone = nextPhone();
    // An RT 02 account puts the RT 01 person's number on its own profile: a claim nobody proved.
    const claimer = await rt02.member("warga");
    const claimed = await callJson<{ whatsappVerified: boolean }>("/api/user/profile", {
      method: "PUT",
      token: claimer.token,
      body: { fullName: "Penyusup", whatsapp: phone.typed, block: "Z", houseNumber: "9" },
    });
    expect(claimed.body.whatsappVerified).toBe(false);
    // The claim does not sign in with the number either.
    expectProblem(
      await callJson("/api/auth/login", { body: { whatsapp: phone.typed, password: PASSWORD } }),
      401,
      "invalid_credentials",
    );

    const res = await invite(admin.token, { name: "Bu Tini", whatsapp: phone.typed, roles: ["bendahara"] });
    expect(res.status).toBe(202);
    const sent = await queuedMessages({ recipient: phone.stored });
    // A set-password link for a new account, not a join link that binds the claimer's account.
    expect(sent.map((m) => JSON.stringify(m.payload))).toEqual([
      expect.stringContaining("/reset-password?token="),
    ]);
    const token = tokenIn(sent[0] ?? ({ payload: {} } as never));
    const accepted = await callJson("/api/auth/reset-password", {
      body: { token, password: "sandi-tini-01" },
    });
    expect(accepted.status).toBe(204);
    const members = await allMembers(admin.token);
    expect(members.map((m) => m.userId)).not.toContain(claimer.id);
    const tini = members.find((m) => m.whatsapp === phone.stored);
    expect(tini).toMatchObject({ roles: ["bendahara"] });
    // The link reached the number, so the number is now Tini's, proven; the claimer keeps an unproven copy.
    const login = await callJson<{ user: { id: string; roles: string[] } }>("/api/auth/login", {
      body: { whatsapp: phone.typed, password: "sandi-tini-01" },
    });
    expect(login.body.user).toMatchObject({ id: tini?.userId, roles: ["bendahara"] });
    const claimerNow = await callJson<{ whatsappVerified: boolean; memberships: unknown[] }>("/api/user/me", {
      token: claimer.token,
    });
    expect(claimerNow.body).toMatchObject({ whatsappVerified: false, memberships: [expect.anything()] });
    expectProblem(
      await callJson("/api/user/contacts/verify/request", {
        token: claimer.token,
        body: { channel: "whatsapp" },
      }),
      409,
      "whatsapp_taken",
    );
  });

  it("refuses an invitation without a contact, with a duty it does not know, or a house outside this registry", async () => {
    const tenantA = await createTenant();
    const tenantB = await createTenant();
    const hB = await household(tenantB);
    const admin = await tenantA.member("admin");
    const base = { name: "Calon Pengurus", email: `calon-${newId().toLowerCase()}@warga.test` };
    expectProblem(
      await invite(admin.token, { name: "Tanpa Kontak", roles: ["sekretaris"] }),
      400,
      "invalid_input",
    );
    expectProblem(await invite(admin.token, { ...base, roles: ["super_admin"] }), 400, "invalid_input");
    expectProblem(await invite(admin.token, { ...base, roles: ["warga"] }), 400, "invalid_input");
    // No duty and no house: not someone who belongs here.
    expectProblem(await invite(admin.token, { ...base, roles: [] }), 400, "invalid_input");
    expectProblem(
      await invite(admin.token, { ...base, roles: [], unitId: hB.unitId }),
      404,
      "unit_not_found",
    );
    expectProblem(
      await invite(admin.token, { ...base, roles: ["bendahara"], unitId: newId() }),
      404,
      "unit_not_found",
    );
    expect(await queuedMessages({ recipient: base.email })).toEqual([]);
  });

  it("answers 409 already_member for someone who is a member already", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const member = await tenant.member("warga");
    expectProblem(
      await invite(admin.token, { name: "Sudah Warga", email: member.email, roles: ["sekretaris"] }),
      409,
      "already_member",
    );
  });

  it("lets one admin send at most 30 invitations an hour", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const other = await tenant.member("admin");
    // Counted before the house is looked up: these are cheap and each one counts.
    const attempt = (token: string) =>
      invite(token, {
        name: "Calon",
        email: `x-${newId().toLowerCase()}@warga.test`,
        roles: [],
        unitId: newId(),
      });
    for (let i = 0; i < 30; i++) {
      expect((await attempt(admin.token)).status).toBe(404);
    }
    const refused = await attempt(admin.token);
    expectProblem(refused, 429, "rate_limited");
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await attempt(other.token)).status).toBe(404);
  });
});

describe("linking an account to its registry person", () => {
  it("links, refuses a person another account holds (409 person_taken) or that does not exist (404), and unlinks", async () => {
    const tenant = await createTenant();
    const h = await household(tenant);
    const spouse = await tenant.member("bendahara", { unitId: h.unitId });
    const linked = await linkPerson(h.sek.token, spouse.id, h.childMemberId);
    expect(linked.status).toBe(200);
    expect(linked.body).toMatchObject({ userId: spouse.id, personId: h.childMemberId });
    // The resident of the household holds its head already.
    expectProblem(await linkPerson(h.admin.token, spouse.id, h.headMemberId), 409, "person_taken");
    const lodger = await tenant.member("warga", { unitId: h.unitId });
    expectProblem(await linkPerson(h.sek.token, lodger.id, h.childMemberId), 409, "person_taken");
    expectProblem(await linkPerson(h.sek.token, spouse.id, newId()), 404, "person_not_found");
    expect((await allMembers(h.admin.token)).find((m) => m.userId === spouse.id)?.personId).toBe(
      h.childMemberId,
    );

    const unlinked = await linkPerson(h.sek.token, spouse.id, null);
    expect(unlinked.body.personId).toBeNull();
    expect((await linkPerson(h.sek.token, lodger.id, h.childMemberId)).body.personId).toBe(h.childMemberId);
    const trail = await auditTrail(h.admin.token, "action=member.person_link");
    expect(trail.map((e) => e.targetId)).toEqual([spouse.id, lodger.id]);
    expect(await auditTrail(h.admin.token, "action=member.person_unlink")).toHaveLength(1);
  });

  it("does not link to another community's person, nor let the treasurer link anyone", async () => {
    const tenantA = await createTenant();
    const hA = await household(tenantA);
    const hB = await household(await createTenant());
    expectProblem(await linkPerson(hA.sek.token, hA.sek.id, hB.childMemberId), 404, "person_not_found");
    const treasurer = await tenantA.member("bendahara");
    expectProblem(await linkPerson(treasurer.token, hA.sek.id, hA.childMemberId), 403, "forbidden_role");
    const row = await platformDb(bindings)
      .select()
      .from(memberships)
      .where(eq(memberships.userId, hA.sek.id))
      .get();
    expect(row?.personId).toBeNull();
  });
});

describe("a person link and a house are the household's (issue 44, P11 and P2)", () => {
  it("links only a person on a card of the member's house; an admin's override is audited", async () => {
    const tenant = await createTenant();
    const h = await household(tenant);
    const neighbour = await household(tenant, { sek: h.sek, admin: h.admin });
    const lodger = await tenant.member("warga", { unitId: h.unitId });
    const override = (token: string, flag: unknown) =>
      callJson<MemberBody>(`/api/members/${lodger.id}/person`, {
        method: "PUT",
        token,
        body: { personId: neighbour.childMemberId, override: flag },
      });
    expectProblem(
      await linkPerson(h.sek.token, lodger.id, neighbour.childMemberId),
      409,
      "person_not_in_household",
    );
    expectProblem(
      await linkPerson(h.admin.token, lodger.id, neighbour.childMemberId),
      409,
      "person_not_in_household",
    );
    // A member with no house has no household's person to link.
    const treasurer = await tenant.member("bendahara");
    expectProblem(
      await linkPerson(h.sek.token, treasurer.id, h.childMemberId),
      409,
      "person_not_in_household",
    );
    expectProblem(await override(h.sek.token, true), 403, "forbidden");
    expectProblem(await override(h.admin.token, "yes"), 400, "invalid_input");
    expect(await auditTrail(h.admin.token, "action=member.person_link")).toEqual([]);
    const forced = await override(h.admin.token, true);
    expect(forced.status).toBe(200);
    expect(forced.body.personId).toBe(neighbour.childMemberId);
    const trail = await auditTrail(h.admin.token, "action=member.person_link");
    expect(trail).toEqual([
      expect.objectContaining({ targetId: lodger.id, detail: expect.objectContaining({ override: true }) }),
    ]);
  });

  it("lets the secretariat set a member's house; a move drops a person link of the old house", async () => {
    const tenant = await createTenant();
    const h = await household(tenant);
    const neighbour = await household(tenant, { sek: h.sek, admin: h.admin });
    const spouse = await tenant.member("warga", { unitId: h.unitId });
    expect((await linkPerson(h.sek.token, spouse.id, h.childMemberId)).status).toBe(200);
    const setUnit = (token: string, userId: string, unitId: string | null) =>
      callJson<MemberBody>(`/api/members/${userId}/unit`, { method: "PUT", token, body: { unitId } });
    expectProblem(await setUnit(h.sek.token, spouse.id, newId()), 404, "unit_not_found");
    expectProblem(await setUnit(h.sek.token, spouse.id, null), 409, "not_resident");
    const otherSek = await (await createTenant()).member("sekretaris");
    expectProblem(await setUnit(otherSek.token, spouse.id, neighbour.unitId), 404, "not_found");
    const treasurer = await tenant.member("bendahara");
    expectProblem(await setUnit(treasurer.token, spouse.id, neighbour.unitId), 403, "forbidden_role");
    const moved = await setUnit(h.sek.token, spouse.id, neighbour.unitId);
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ unitId: neighbour.unitId, personId: null });
    const trail = await auditTrail(h.admin.token, "action=member.unit");
    expect(trail).toEqual([
      expect.objectContaining({
        targetId: spouse.id,
        detail: { from: h.unitId, to: neighbour.unitId, via: "staff", personUnlinked: true },
      }),
    ]);
  });
});

describe("the committee's audit", () => {
  it("records nothing for a refused change", async () => {
    const tenant = await createTenant();
    const admin = await soleAdmin(tenant);
    expectProblem(await setRoles(admin.token, admin.id, ["bendahara"]), 409, "last_admin");
    expectProblem(await removeMember(admin.token, admin.id), 409, "last_admin");
    expect(await auditTrail(admin.token, "action=member.roles")).toEqual([]);
    const removals = await auditTrail(admin.token, "action=member.remove");
    // Only the removals soleAdmin made of other admins, none of this one.
    expect(removals.map((e) => e.targetId)).not.toContain(admin.id);
  });
});

/** Issue 44, P3: invitations with a lifecycle. */
interface PendingBody {
  id: string;
  kind: "account" | "join";
  name: string;
  email: string | null;
  whatsapp: string | null;
  roles: string[];
  unitId: string | null;
  channel: string | null;
  sentBy: { userId: string; name: string } | null;
  expiresAt: string;
  createdAt: string;
}
const pending = (token: string, query = "") =>
  callJson<{ items: PendingBody[]; nextCursor: string | null }>(`/api/members/invitations${query}`, {
    token,
  });
const revoke = (token: string, id: string) =>
  callJson(`/api/members/invitations/${id}`, { method: "DELETE", token });
const joinPreview = (token: string) => callJson("/api/auth/join/preview", { body: { token } });
const joinAccept = (token: string) => callJson("/api/auth/join/accept", { body: { token } });
async function lastLinkTo(recipient: string): Promise<string> {
  const message = (await queuedMessages({ recipient })).at(-1);
  return tokenIn(message ?? ({ payload: {} } as never));
}

describe("invitations with a lifecycle", () => {
  it("a newer invitation to the same person retires the older link (410 invitation_retired, preview too); joining gives the newest one's duties", async () => {
    const tenant = await createTenant();
    const h = await household(tenant);
    const existing = await insertUser({ name: "Bu Ani" });
    await invite(h.admin.token, { name: "Ani", email: existing.email, roles: ["bendahara"] });
    const treasurerLink = await lastLinkTo(existing.email);
    await invite(h.admin.token, { name: "Ani", email: existing.email, roles: [], unitId: h.unitId });
    const residentLink = await lastLinkTo(existing.email);
    expect(residentLink).not.toBe(treasurerLink);

    expectProblem(await joinPreview(treasurerLink), 410, "invitation_retired");
    expectProblem(await joinAccept(treasurerLink), 410, "invitation_retired");
    expect((await joinAccept(residentLink)).status).toBe(200);
    expect((await allMembers(h.admin.token)).find((m) => m.userId === existing.id)).toMatchObject({
      roles: [],
      unitId: h.unitId,
    });
    // Still withdrawn, not "used", after the newer one was accepted.
    expectProblem(await joinAccept(treasurerLink), 410, "invitation_retired");
  });

  it("refuses a link older than the newest invitation even when it was stored before links were retired", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const existing = await insertUser({ name: "Pak Lama" });
    const db = platformDb(bindings);
    // Two join links as stored before issue 44: the community only in `data`, nothing retired.
    const legacy = async (roles: ("bendahara" | "sekretaris")[], createdAt: string) => {
      const token = `legacy-${newId()}`;
      await db.insert(oneTimeTokens).values({
        id: newId(),
        purpose: "join",
        tokenHash: await sha256Hex(token),
        userId: existing.id,
        data: { tenantId: tenant.id, unitId: null, roles },
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
        createdAt,
      });
      return token;
    };
    const older = await legacy(["bendahara"], "2026-01-01T00:00:00.000Z");
    const newer = await legacy(["sekretaris"], "2026-01-02T00:00:00.000Z");
    expectProblem(await joinPreview(older), 410, "invitation_retired");
    expectProblem(await joinAccept(older), 410, "invitation_retired");
    expect((await joinAccept(newer)).status).toBe(200);
    expect((await allMembers(admin.token)).find((m) => m.userId === existing.id)?.roles).toEqual([
      "sekretaris",
    ]);
  });

  it("removing a member retires their unused link: the treasurer's set-password link no longer works", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const email = `bendahara-${newId().toLowerCase()}@warga.test`;
    await invite(admin.token, { name: "Bendahara Baru", email, roles: ["bendahara"] });
    const link = await lastLinkTo(email);
    const invited = (await allMembers(admin.token)).find((m) => m.email === email);
    expect((await removeMember(admin.token, invited?.userId ?? "")).status).toBe(204);
    expectProblem(
      await callJson("/api/auth/reset-password", { body: { token: link, password: "sandi-bendahara-1" } }),
      410,
      "invitation_retired",
    );
    expectProblem(await joinPreview(link), 410, "invitation_retired");
    expect((await pending(admin.token)).body.items.map((i) => i.name)).not.toContain("Bendahara Baru");
  });

  it("lists pending invitations (who, masked contact, duties, sender, channel, expiry), newest first and paged; the admin revokes one, audited", async () => {
    const tenant = await createTenant();
    const h = await household(tenant);
    const phone = nextPhone();
    const existing = await insertUser({ name: "Bu Ani" });
    await invite(h.admin.token, { name: "Satria Jaga", whatsapp: phone.typed, roles: ["satpam"] });
    await invite(h.admin.token, { name: "Ani Bendahara", email: existing.email, roles: ["bendahara"] });
    const first = await pending(h.admin.token, "?limit=1");
    expect(first.status).toBe(200);
    expect(first.body.items).toEqual([
      {
        id: expect.any(String),
        kind: "join",
        name: "Ani Bendahara",
        email: `${existing.email.slice(0, 1)}***@warga.test`,
        whatsapp: null,
        roles: ["bendahara"],
        unitId: null,
        channel: "email",
        sentBy: { userId: h.admin.id, name: expect.any(String) },
        expiresAt: expect.any(String),
        createdAt: expect.any(String),
      },
    ]);
    expect(JSON.stringify(first.body)).not.toContain(existing.email);
    const second = await pending(h.admin.token, `?limit=1&cursor=${first.body.nextCursor}`);
    expect(second.body.items).toEqual([
      expect.objectContaining({
        kind: "account",
        name: "Satria Jaga",
        whatsapp: `${phone.stored.slice(0, 4)}${"*".repeat(phone.stored.length - 6)}${phone.stored.slice(-2)}`,
        roles: ["satpam"],
        channel: "whatsapp",
      }),
    ]);
    // Only pending ones: the tenant's own operator-invited admin is listed too, so look for these two.
    const joinId = first.body.items[0]?.id ?? "";
    const link = await lastLinkTo(existing.email);

    expect((await revoke(h.admin.token, joinId)).status).toBe(204);
    expectProblem(await joinPreview(link), 410, "invitation_retired");
    expectProblem(await joinAccept(link), 410, "invitation_retired");
    expect((await pending(h.admin.token, "?limit=100")).body.items.map((i) => i.id)).not.toContain(joinId);
    expectProblem(await revoke(h.admin.token, joinId), 404, "not_found");
    expectProblem(await revoke(h.admin.token, newId()), 404, "not_found");
    expect(await auditTrail(h.admin.token, "action=member.invitation_revoke")).toEqual([
      expect.objectContaining({ targetId: joinId, detail: { kind: "join" } }),
    ]);
  });

  it("another community's admin can neither list nor revoke them; other staff may not either", async () => {
    const tenantA = await createTenant();
    const tenantB = await createTenant();
    const adminA = await tenantA.member("admin");
    const adminB = await tenantB.member("admin");
    await invite(adminA.token, {
      name: "Calon RT 01",
      email: `calon-${newId().toLowerCase()}@warga.test`,
      roles: ["sekretaris"],
    });
    const idA = (await pending(adminA.token)).body.items.find((i) => i.name === "Calon RT 01")?.id ?? "";
    expect(idA).not.toBe("");
    expect((await pending(adminB.token, "?limit=100")).body.items.map((i) => i.id)).not.toContain(idA);
    expectProblem(await revoke(adminB.token, idA), 404, "not_found");
    const sek = await tenantA.member("sekretaris");
    expectProblem(await pending(sek.token), 403, "forbidden_role");
    expectProblem(await revoke(sek.token, idA), 403, "forbidden_role");
    expectProblem(await pending(adminA.token, "?limit=0"), 400, "invalid_input");
    expectProblem(await pending(adminA.token, "?cursor=nonsense"), 400, "invalid_cursor");
    expect((await pending(adminA.token)).body.items.map((i) => i.id)).toContain(idA);
  });
});

describe("who counts as another admin (issue 44, P7)", () => {
  it("an invited admin who never signed in is not another admin; once they set a password they are", async () => {
    const tenant = await createTenant();
    const admin = await soleAdmin(tenant, { unitId: "unit-ketua" });
    const email = `wakil-${newId().toLowerCase()}@warga.test`;
    expect((await invite(admin.token, { name: "Wakil Ketua", email, roles: ["admin"] })).status).toBe(202);
    expectProblem(await setRoles(admin.token, admin.id, []), 409, "last_admin");
    expectProblem(await removeMember(admin.token, admin.id), 409, "last_admin");
    const link = await lastLinkTo(email);
    expect(
      (await callJson("/api/auth/reset-password", { body: { token: link, password: "sandi-wakil-1" } }))
        .status,
    ).toBe(204);
    expect((await setRoles(admin.token, admin.id, [])).status).toBe(200);
  });
});

describe("contacts masked for other staff (issue 44, P8)", () => {
  it("the treasurer's search matches names, never the masked email or number; the admin's matches both", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const treasurer = await tenant.member("bendahara");
    const phone = nextPhone();
    const resident = await tenant.member("warga", { unitId: "unit-cari", whatsapp: phone.stored });
    const hidden = phone.stored.slice(4, 8);
    const found = async (token: string, q: string) =>
      (await allMembers(token, `?q=${encodeURIComponent(q)}`)).map((m) => m.userId);
    expect(await found(admin.token, hidden)).toContain(resident.id);
    expect(await found(admin.token, resident.email)).toEqual([resident.id]);
    expect(await found(treasurer.token, hidden)).not.toContain(resident.id);
    expect(await found(treasurer.token, phone.typed)).not.toContain(resident.id);
    expect(await found(treasurer.token, resident.email)).toEqual([]);
    expect(await found(treasurer.token, "Pengguna Uji")).toContain(resident.id);
  });
});
