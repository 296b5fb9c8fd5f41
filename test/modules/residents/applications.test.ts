import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { memberships, oneTimeTokens, users } from "../../../src/core/db/identity-schema";
import { platformDb } from "../../../src/core/db/platform";
import { residentApplications } from "../../../src/core/db/platform-schema";
import { newId } from "../../../src/core/ids";
import {
  bindings,
  callJson,
  createTenant,
  expectProblem,
  expectRefusedMove,
  insertUser,
  operatorToken,
  PASSWORD,
  type TestTenant,
} from "../../helpers/harness";
import { queuedMessages } from "../../helpers/notify";
import { tokenIn } from "../identity/helpers";

interface ApplicationBody {
  id: string;
  status: string;
  userId: string | null;
  reason: string | null;
  decidedBy: string | null;
  whatsapp: string;
  block: string;
  houseNumber: string;
}
interface Decision {
  application: ApplicationBody;
  invitation: { channel: string | null; sent: boolean } | null;
}

let phone = 0;
const nextPhone = () => `08135${Date.now().toString().slice(-4)}${String(++phone).padStart(2, "0")}`;

function apply(tenant: { slug: string }, body: Record<string, unknown> = {}) {
  return callJson(`/api/public/tenants/${tenant.slug}/applications`, {
    body: { fullName: "Warga Baru", whatsapp: nextPhone(), block: "A", houseNumber: "3", ...body },
  });
}

async function pendingOf(tenant: TestTenant, token: string, whatsapp: string): Promise<ApplicationBody> {
  const list = await callJson<{ items: ApplicationBody[] }>("/api/applications?status=menunggu", { token });
  const normalised = `62${whatsapp.replace(/\D/g, "").replace(/^0/, "")}`;
  const found = list.body.items.find((a) => a.whatsapp === normalised);
  if (!found) {
    throw new Error(`no pending application for ${whatsapp} in ${tenant.slug}`);
  }
  return found;
}

const decide = (token: string, id: string, body: Record<string, unknown>) =>
  callJson<Decision>(`/api/applications/${id}`, { method: "PUT", token, body });

describe("the public application form", () => {
  it("answers 202 menunggu and stores a normalised application", async () => {
    const tenant = await createTenant();
    const whatsapp = nextPhone();
    const res = await apply(tenant, {
      whatsapp,
      email: "Warga.Baru@Mail.test",
      block: " b ",
      kkNumber: "3174012345678901",
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: "menunggu" });
    const sek = await tenant.member("sekretaris");
    const app = await pendingOf(tenant, sek.token, whatsapp);
    expect(app).toMatchObject({ status: "menunggu", block: "B", houseNumber: "3", userId: null });
  });

  it("stores nothing when the honeypot is filled, yet answers the same", async () => {
    const tenant = await createTenant();
    const res = await apply(tenant, { website: "http://spam.example" });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: "menunggu" });
    const rows = await platformDb(bindings)
      .select()
      .from(residentApplications)
      .where(eq(residentApplications.tenantId, tenant.id));
    expect(rows).toEqual([]);
  });

  it("keeps one pending application per number", async () => {
    const tenant = await createTenant();
    const whatsapp = nextPhone();
    await apply(tenant, { whatsapp });
    expect((await apply(tenant, { whatsapp: whatsapp.replace(/^0/, "+62") })).status).toBe(202);
    const rows = await platformDb(bindings)
      .select()
      .from(residentApplications)
      .where(eq(residentApplications.tenantId, tenant.id));
    expect(rows).toHaveLength(1);
  });

  it("rejects bad input, unknown communities and communities without the warga module", async () => {
    const tenant = await createTenant();
    expectProblem(await apply(tenant, { whatsapp: "0215551234" }), 400, "invalid_input");
    expectProblem(await apply(tenant, { kkNumber: "123" }), 400, "invalid_input");
    expectProblem(await apply(tenant, { fullName: undefined }), 400, "invalid_input");
    expectProblem(await apply({ slug: "tidak-ada-rt" }), 404, "tenant_not_found");
    const off = await createTenant();
    await callJson(`/api/platform/tenants/${off.id}`, {
      method: "PATCH",
      token: await operatorToken(),
      body: { flags: { warga: false } },
    });
    expectProblem(await apply(off), 403, "feature_disabled");
  });
});

describe("deciding applications", () => {
  it("approves: account, membership with the unit, email invitation, audit — and the link sets a password", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const whatsapp = nextPhone();
    const email = `pelamar-${newId().toLowerCase()}@mail.test`;
    await apply(tenant, { whatsapp, email, fullName: "Dewi Lestari", block: "F", houseNumber: "9" });
    const app = await pendingOf(tenant, sek.token, whatsapp);

    const res = await decide(sek.token, app.id, { status: "disetujui" });
    expect(res.status).toBe(200);
    expect(res.body.invitation).toEqual({ channel: "email", sent: true });
    expect(res.body.application).toMatchObject({
      status: "disetujui",
      decidedBy: sek.id,
      userId: expect.any(String),
    });
    const userId = res.body.application.userId ?? "";

    const residents = await callJson<{
      items: { userId: string; unit: { block: string; number: string }; hasPassword: boolean }[];
    }>("/api/residents", { token: sek.token });
    expect(residents.body.items).toContainEqual(
      expect.objectContaining({
        userId,
        unit: expect.objectContaining({ block: "F", number: "9" }),
        hasPassword: false,
      }),
    );

    const [welcome] = await queuedMessages({ recipient: email, template: "WELCOME" });
    expect(String(welcome?.payload.text)).toContain("Dewi Lestari");
    const token = tokenIn(welcome ?? ({ payload: {} } as never));
    expect(
      (await callJson("/api/auth/reset-password", { body: { token, password: "sandi-pertama-1" } })).status,
    ).toBe(204);
    const session = await callJson<{ user: { roles: string[]; resident: boolean } }>("/api/auth/login", {
      body: { email, password: "sandi-pertama-1" },
    });
    expect(session.body.user).toMatchObject({ roles: [], resident: true });
    const me = await callJson<{ profileComplete: boolean }>("/api/user/me", {
      token: (session.body as unknown as { accessToken: string }).accessToken,
    });
    expect(me.body.profileComplete).toBe(true);

    const admin = await tenant.member("admin");
    const audit = await callJson<{ items: { action: string; targetId: string; actorId: string }[] }>(
      "/api/audit?action=application.approve",
      { token: admin.token },
    );
    expect(audit.body.items).toEqual([expect.objectContaining({ targetId: app.id, actorId: sek.id })]);
  });

  it("invites over WhatsApp when there is no email, and the resident signs in with the number", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const whatsapp = nextPhone();
    await apply(tenant, { whatsapp });
    const app = await pendingOf(tenant, sek.token, whatsapp);
    const res = await decide(sek.token, app.id, { status: "disetujui" });
    expect(res.body.invitation).toEqual({ channel: "whatsapp", sent: true });
    const [message] = await queuedMessages({ recipient: app.whatsapp });
    expect(message?.channel).toBe("whatsapp");
    const token = tokenIn(message ?? ({ payload: {} } as never));
    await callJson("/api/auth/reset-password", { body: { token, password: "sandi-wa-1234" } });
    const login = await callJson("/api/auth/login", { body: { whatsapp, password: "sandi-wa-1234" } });
    expect(login.status).toBe(200);
  });

  it("approves an application for a number another account only claimed as a new account (issue 44, P1)", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const whatsapp = nextPhone();
    const normalised = `62${whatsapp.slice(1)}`;
    // Another community's account typed this number on its profile and never proved it.
    const claimer = await (await createTenant()).member("warga", {
      whatsapp: normalised,
      whatsappVerified: false,
    });
    await apply(tenant, { whatsapp });
    const app = await pendingOf(tenant, sek.token, whatsapp);
    const res = await decide(sek.token, app.id, { status: "disetujui" });
    expect(res.body.application.userId).toEqual(expect.any(String));
    expect(res.body.application.userId).not.toBe(claimer.id);
    const [message] = await queuedMessages({ recipient: normalised });
    expect(JSON.stringify(message?.payload)).toContain("/reset-password?token=");
    const joined = await platformDb(bindings)
      .select()
      .from(memberships)
      .where(eq(memberships.userId, claimer.id));
    expect(joined.map((m) => m.tenantId)).not.toContain(tenant.id);
  });

  it("never links an existing account on the applicant's word: its holder must accept a join link", async () => {
    const rw = await createTenant({ type: "RW" });
    const rt = await createTenant({ type: "RT", parentSlug: rw.slug });
    const victim = await insertUser({ name: "Sekretaris Rahasia", whatsapp: null });
    await platformDb(bindings)
      .insert(memberships)
      .values({ id: newId(), userId: victim.id, tenantId: rw.id, roles: ["sekretaris"] });
    const sek = await rt.member("sekretaris");
    const whatsapp = nextPhone();
    await apply(rt, { whatsapp, email: victim.email, fullName: "Nama Karangan" });
    const app = await pendingOf(rt, sek.token, whatsapp);
    const res = await decide(sek.token, app.id, { status: "disetujui" });
    expect(res.status).toBe(200);
    expect(res.body.application.userId).toBeNull();
    expect(res.body.invitation).toEqual({ channel: "email", sent: true });
    const residents = await callJson("/api/residents", { token: sek.token });
    const admin = await rt.member("admin");
    const audit = await callJson("/api/audit?action=application.approve", { token: admin.token });
    for (const seen of [res.body, residents.body, audit.body]) {
      expect(JSON.stringify(seen)).not.toContain(victim.id);
      expect(JSON.stringify(seen)).not.toContain("Sekretaris Rahasia");
    }
    const roles = async () =>
      (await platformDb(bindings).select().from(memberships).where(eq(memberships.userId, victim.id)))
        .map((m) => (m.roles.length ? m.roles.join("+") : "warga"))
        .sort();
    expect(await roles()).toEqual(["sekretaris"]);

    const [link] = await queuedMessages({ recipient: victim.email });
    const token = tokenIn(link ?? ({ payload: {} } as never));
    const accepted = await callJson("/api/auth/join/accept", { body: { token } });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({
      tenant: expect.objectContaining({ slug: rt.slug }),
      roles: [],
      resident: true,
    });
    expect(await roles()).toEqual(["sekretaris", "warga"]);
    expectProblem(await callJson("/api/auth/join/accept", { body: { token } }), 409, "token_used");
    expect(await roles()).toEqual(["sekretaris", "warga"]);
    const signedIn = await callJson("/api/auth/login", {
      body: { email: victim.email, password: PASSWORD, tenant: rt.slug },
    });
    expect(signedIn.status).toBe(200);
  });

  it("sends the join link to the account's own contact, not to one only the applicant typed", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const whatsapp = nextPhone();
    const normalised = `62${whatsapp.replace(/^0/, "")}`;
    const owner = await insertUser({ whatsapp: normalised });
    const attackerEmail = `penyerang-${newId().toLowerCase()}@mail.test`;
    await apply(tenant, { whatsapp, email: attackerEmail });
    const app = await pendingOf(tenant, sek.token, whatsapp);
    const res = await decide(sek.token, app.id, { status: "disetujui" });
    expect(res.body.invitation).toEqual({ channel: "email", sent: true });
    expect(await queuedMessages({ recipient: attackerEmail })).toEqual([]);
    expect(await queuedMessages({ recipient: owner.email })).toEqual([]);
    const [link] = await queuedMessages({ recipient: normalised });
    expect(link?.channel).toBe("whatsapp");
    expect(JSON.stringify(link?.payload)).toContain("/join?token=");
  });

  it("refuses a wrong or expired join token and creates nothing", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const holder = await insertUser({});
    const whatsapp = nextPhone();
    await apply(tenant, { whatsapp, email: holder.email });
    const app = await pendingOf(tenant, sek.token, whatsapp);
    await decide(sek.token, app.id, { status: "disetujui" });
    const token = tokenIn(
      (await queuedMessages({ recipient: holder.email }))[0] ?? ({ payload: {} } as never),
    );
    expectProblem(
      await callJson("/api/auth/join/accept", { body: { token: `${token.slice(0, -2)}xx` } }),
      400,
      "token_invalid",
    );
    await platformDb(bindings)
      .update(oneTimeTokens)
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(eq(oneTimeTokens.userId, holder.id));
    expectProblem(await callJson("/api/auth/join/accept", { body: { token } }), 400, "token_expired");
    const rows = await platformDb(bindings)
      .select()
      .from(memberships)
      .where(eq(memberships.userId, holder.id));
    expect(rows).toEqual([]);
  });

  it("answers the public form the same for an existing account's contact and an unknown one", async () => {
    const tenant = await createTenant();
    const holder = await insertUser({});
    const known = await apply(tenant, { email: holder.email });
    const unknown = await apply(tenant, { email: `tak-dikenal-${newId().toLowerCase()}@mail.test` });
    expect(known.status).toBe(unknown.status);
    expect(known.body).toEqual(unknown.body);
    expect(known.body).toEqual({ status: "menunggu" });
  });

  it("rejects with a reason, and refuses a second decision with 409", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const whatsapp = nextPhone();
    await apply(tenant, { whatsapp });
    const app = await pendingOf(tenant, sek.token, whatsapp);
    const rejected = await decide(sek.token, app.id, { status: "ditolak", reason: "Bukan warga RT ini" });
    expect(rejected.body.application).toMatchObject({
      status: "ditolak",
      reason: "Bukan warga RT ini",
      userId: null,
    });
    expect(rejected.body.invitation).toBeNull();
    expectRefusedMove(await decide(sek.token, app.id, { status: "disetujui" }), []);
    const accounts = await platformDb(bindings).select().from(users).where(eq(users.whatsapp, app.whatsapp));
    expect(accounts).toEqual([]);
  });

  it("lets exactly one of two simultaneous decisions win", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const admin = await tenant.member("admin");
    const whatsapp = nextPhone();
    await apply(tenant, { whatsapp });
    const app = await pendingOf(tenant, sek.token, whatsapp);
    const results = await Promise.all([
      decide(sek.token, app.id, { status: "disetujui" }),
      decide(admin.token, app.id, { status: "ditolak" }),
      decide(admin.token, app.id, { status: "disetujui" }),
    ]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const loser of results.filter((r) => r.status !== 200)) {
      expectProblem(loser, 409, "invalid_transition");
    }
    const members = await platformDb(bindings)
      .select()
      .from(memberships)
      .where(eq(memberships.tenantId, tenant.id));
    expect(members.filter((m) => m.roles.length === 0).length).toBeLessThanOrEqual(1);
    // The losers' audit records were in their aborted batches: one decision, one record.
    const records = await Promise.all(
      ["application.approve", "application.reject"].map((action) =>
        callJson<{ items: { targetId: string }[] }>(`/api/audit?action=${action}`, { token: admin.token }),
      ),
    );
    expect(records.flatMap((r) => r.body.items).filter((i) => i.targetId === app.id)).toHaveLength(1);
  });

  it("hides other tenants' applications (404), refuses other roles (403) and bad input (400)", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const whatsapp = nextPhone();
    await apply(a, { whatsapp });
    const sekA = await a.member("sekretaris");
    const app = await pendingOf(a, sekA.token, whatsapp);
    const sekB = await b.member("sekretaris");
    expectProblem(await decide(sekB.token, app.id, { status: "disetujui" }), 404, "not_found");
    for (const role of ["warga", "bendahara"] as const) {
      const m = await a.member(role);
      expectProblem(await decide(m.token, app.id, { status: "disetujui" }), 403, "forbidden_role");
      expectProblem(await callJson("/api/applications", { token: m.token }), 403, "forbidden_role");
    }
    expectProblem(await decide(sekA.token, app.id, { status: "menunggu" }), 400, "invalid_input");
    const list = await callJson<{ items: ApplicationBody[] }>("/api/applications", { token: sekB.token });
    expect(list.body.items).toEqual([]);
  });

  it("answers 403 feature_disabled when the warga module is off", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    await callJson(`/api/platform/tenants/${tenant.id}`, {
      method: "PATCH",
      token: await operatorToken(),
      body: { flags: { warga: false } },
    });
    expectProblem(await callJson("/api/applications", { token: sek.token }), 403, "feature_disabled");
    expectProblem(await callJson("/api/residents", { token: sek.token }), 403, "feature_disabled");
  });
});

let nikSeq = 0;
/** A valid NIK or KK number (region 327301, born 1 January 1980 unless told), unique in the file. */
const nik = (ddmmyy = "010180") => `327301${ddmmyy}${String(++nikSeq).padStart(4, "0")}`;

/** A family card at block/number (the house created first): its head and his wife, both named. */
async function familyAt(token: string, block: string, number: string, head = "Dewi Lestari") {
  const unit = await callJson<{ id: string }>("/api/kependudukan/units", { token, body: { block, number } });
  expect(unit.status).toBe(201);
  const card = await callJson<{ id: string; members: { id: string }[] }>("/api/kependudukan/kk", {
    token,
    body: {
      kkNumber: nik(),
      unitId: unit.body.id,
      headName: "Bambang Lestari",
      headNik: nik(),
      headSex: "L",
    },
  });
  expect(card.status).toBe(201);
  const added = await callJson<{ members: { id: string; name: string }[] }>(
    `/api/kependudukan/kk/${card.body.id}/members`,
    {
      token,
      // Everything a letter's identity block prints (issue 29): a letter is refused without it.
      body: {
        name: head,
        nik: nik("410285"),
        relationship: "istri",
        sex: "P",
        birthPlace: "Bogor",
        birthDate: "1985-02-01",
        religion: "islam",
        occupation: "Wiraswasta",
        maritalStatus: "kawin",
        citizenship: "WNI",
      },
    },
  );
  expect(added.status).toBe(201);
  return {
    unitId: unit.body.id,
    headId: card.body.members[0]?.id ?? "",
    wifeId: added.body.members.find((m) => m.name === head)?.id ?? "",
  };
}

const membershipOf = async (userId: string, tenantId: string) =>
  (await platformDb(bindings).select().from(memberships).where(eq(memberships.userId, userId))).find(
    (m) => m.tenantId === tenantId,
  );

describe("approval with the applicant's registry person (personId)", () => {
  it("links the new account to the person staff picked: the household marks them, a letter for myself names them", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const family = await familyAt(sek.token, "F", "9");
    const whatsapp = nextPhone();
    const email = `dewi-${newId().toLowerCase()}@mail.test`;
    await apply(tenant, { whatsapp, email, fullName: "Dewi Lestari", block: "f", houseNumber: "9" });
    const app = await pendingOf(tenant, sek.token, whatsapp);
    const res = await decide(sek.token, app.id, { status: "disetujui", personId: family.wifeId });
    expect(res.status).toBe(200);
    const userId = res.body.application.userId ?? "";
    expect(await membershipOf(userId, tenant.id)).toMatchObject({
      unitId: family.unitId,
      personId: family.wifeId,
      roles: [],
    });

    const [welcome] = await queuedMessages({ recipient: email, template: "WELCOME" });
    const token = tokenIn(welcome ?? ({ payload: {} } as never));
    await callJson("/api/auth/reset-password", { body: { token, password: "sandi-pertama-1" } });
    const login = await callJson<{ accessToken: string }>("/api/auth/login", {
      body: { email, password: "sandi-pertama-1" },
    });
    const household = await callJson<{ personId: string; members: { id: string; isMe: boolean }[] }>(
      "/api/kependudukan/household",
      { token: login.body.accessToken },
    );
    expect(household.body.personId).toBe(family.wifeId);
    expect(household.body.members.filter((m) => m.isMe).map((m) => m.id)).toEqual([family.wifeId]);
    const letter = await callJson<{ onBehalfOf: string; subjectName: string }>("/api/surat", {
      token: login.body.accessToken,
      body: { jenis: "belum_menikah", onBehalfOf: "self", keperluan: "Persyaratan kerja", fields: {} },
    });
    expect(letter.body).toMatchObject({ onBehalfOf: family.wifeId, subjectName: "Dewi Lestari" });
  });

  it("carries the person in an existing account's join link, set when the holder accepts", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const family = await familyAt(sek.token, "G", "2");
    const holder = await insertUser({});
    const whatsapp = nextPhone();
    await apply(tenant, { whatsapp, email: holder.email, block: "G", houseNumber: "2" });
    const app = await pendingOf(tenant, sek.token, whatsapp);
    const res = await decide(sek.token, app.id, { status: "disetujui", personId: family.headId });
    expect(res.body.application.userId).toBeNull();
    expect(await membershipOf(holder.id, tenant.id)).toBeUndefined();
    const [link] = await queuedMessages({ recipient: holder.email });
    const accepted = await callJson("/api/auth/join/accept", {
      body: { token: tokenIn(link ?? ({ payload: {} } as never)) },
    });
    expect(accepted.status).toBe(200);
    expect(await membershipOf(holder.id, tenant.id)).toMatchObject({
      unitId: family.unitId,
      personId: family.headId,
    });
  });

  it("refuses an unknown person or another tenant's (404), one at another house (409), and a rejection with one (400)", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const here = await familyAt(sek.token, "H", "1");
    const nextDoor = await familyAt(sek.token, "H", "2");
    const elsewhere = await createTenant();
    const theirs = await familyAt((await elsewhere.member("sekretaris")).token, "H", "1");
    const whatsapp = nextPhone();
    await apply(tenant, { whatsapp, block: "H", houseNumber: "1" });
    const app = await pendingOf(tenant, sek.token, whatsapp);
    for (const personId of ["01HZZZZZZZZZZZZZZZZZZZZZZZ", theirs.headId]) {
      expectProblem(
        await decide(sek.token, app.id, { status: "disetujui", personId }),
        404,
        "person_not_found",
      );
    }
    expectProblem(
      await decide(sek.token, app.id, { status: "disetujui", personId: nextDoor.headId }),
      409,
      "person_not_at_unit",
    );
    expectProblem(
      await decide(sek.token, app.id, { status: "ditolak", personId: here.headId }),
      400,
      "invalid_input",
    );
    // Nothing was decided or created by the refusals.
    expect((await pendingOf(tenant, sek.token, whatsapp)).status).toBe("menunggu");
    const accounts = await platformDb(bindings).select().from(users).where(eq(users.whatsapp, app.whatsapp));
    expect(accounts).toEqual([]);
    expect((await decide(sek.token, app.id, { status: "disetujui", personId: here.headId })).status).toBe(
      200,
    );
  });

  it("answers 409 person_taken for a person who already has an account here, at approval or at a join link's acceptance", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const family = await familyAt(sek.token, "J", "5");
    await tenant.member("warga", { unitId: family.unitId, personId: family.headId });
    const whatsapp = nextPhone();
    await apply(tenant, { whatsapp, block: "J", houseNumber: "5" });
    const app = await pendingOf(tenant, sek.token, whatsapp);
    expectProblem(
      await decide(sek.token, app.id, { status: "disetujui", personId: family.headId }),
      409,
      "person_taken",
    );
    expect((await pendingOf(tenant, sek.token, whatsapp)).status).toBe("menunggu");

    // The wife: first offered to an existing account by a join link, then approved for a new account
    // before the link was accepted. The link, accepted last, cannot make a second account of her.
    const holder = await insertUser({});
    const viaLink = nextPhone();
    await apply(tenant, { whatsapp: viaLink, email: holder.email, block: "J", houseNumber: "5" });
    const linked = await pendingOf(tenant, sek.token, viaLink);
    expect(
      (await decide(sek.token, linked.id, { status: "disetujui", personId: family.wifeId })).status,
    ).toBe(200);
    expect((await decide(sek.token, app.id, { status: "disetujui", personId: family.wifeId })).status).toBe(
      200,
    );
    const [link] = await queuedMessages({ recipient: holder.email });
    expectProblem(
      await callJson("/api/auth/join/accept", {
        body: { token: tokenIn(link ?? ({ payload: {} } as never)) },
      }),
      409,
      "person_taken",
    );
    expect(await membershipOf(holder.id, tenant.id)).toBeUndefined();
  });
});

describe("POST /api/residents/:id/credentials/reset", () => {
  it("re-sends a set-password link, and only the newest link works", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const whatsapp = nextPhone();
    await apply(tenant, { whatsapp });
    const app = await pendingOf(tenant, sek.token, whatsapp);
    const approved = await decide(sek.token, app.id, { status: "disetujui" });
    const userId = approved.body.application.userId ?? "";
    const first = tokenIn(
      (await queuedMessages({ recipient: app.whatsapp }))[0] ?? ({ payload: {} } as never),
    );

    const res = await callJson(`/api/residents/${userId}/credentials/reset`, {
      method: "POST",
      token: sek.token,
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ channel: "whatsapp", sent: true });
    const sent = await queuedMessages({ recipient: app.whatsapp });
    expect(sent).toHaveLength(2);
    const second = tokenIn(sent[1] ?? ({ payload: {} } as never));
    expectProblem(
      await callJson("/api/auth/reset-password", { body: { token: first, password: "sandi-baru-123" } }),
      410,
      "invitation_retired",
    );
    expect(
      (await callJson("/api/auth/reset-password", { body: { token: second, password: "sandi-baru-123" } }))
        .status,
    ).toBe(204);
    const admin = await tenant.member("admin");
    const audit = await callJson<{ items: { targetId: string; actorId: string }[] }>(
      "/api/audit?action=resident.credentials_reset",
      { token: admin.token },
    );
    expect(audit.body.items).toEqual([expect.objectContaining({ targetId: userId, actorId: sek.id })]);
  });

  it("answers 404 for someone who is not a resident of this community", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const residentOfB = await b.member("warga");
    const staffOfA = await a.member("sekretaris");
    const admin = await a.member("admin");
    for (const id of [residentOfB.id, admin.id, "01HZZZZZZZZZZZZZZZZZZZZZZZ"]) {
      expectProblem(
        await callJson(`/api/residents/${id}/credentials/reset`, { method: "POST", token: staffOfA.token }),
        404,
        "not_found",
      );
    }
  });
});

describe("GET /api/residents", () => {
  it("pages the resident accounts in the order they joined, staff only", async () => {
    const tenant = await createTenant();
    const residents = [];
    for (let i = 0; i < 3; i++) {
      residents.push(await tenant.member("warga"));
    }
    const bendahara = await tenant.member("bendahara");
    type Page = {
      items: { userId: string; unit: unknown; hasPassword: boolean }[];
      nextCursor: string | null;
    };
    const first = await callJson<Page>("/api/residents?limit=2", { token: bendahara.token });
    expect(first.status).toBe(200);
    expect(first.body.items.map((r) => r.userId)).toEqual([residents[0]?.id, residents[1]?.id]);
    expect(first.body.items[0]).toMatchObject({ unit: null, hasPassword: true });
    const second = await callJson<Page>(`/api/residents?limit=2&cursor=${first.body.nextCursor}`, {
      token: bendahara.token,
    });
    expect(second.body).toEqual({
      items: [expect.objectContaining({ userId: residents[2]?.id })],
      nextCursor: null,
    });
    expectProblem(await callJson("/api/residents", { token: residents[0]?.token }), 403, "forbidden_role");
  });

  it("shows contacts whole to the admin and masked to other staff, as the members list does (issue 44, P8)", async () => {
    const tenant = await createTenant();
    const whatsapp = { stored: `62${nextPhone().slice(1)}` };
    const resident = await tenant.member("warga", { whatsapp: whatsapp.stored });
    type Row = { userId: string; email: string | null; whatsapp: string | null };
    const seenBy = async (token: string) =>
      (await callJson<{ items: Row[] }>("/api/residents?limit=100", { token })).body.items.find(
        (r) => r.userId === resident.id,
      );
    expect(await seenBy((await tenant.member("admin")).token)).toMatchObject({
      email: resident.email,
      whatsapp: whatsapp.stored,
    });
    for (const role of ["sekretaris", "bendahara"] as const) {
      const seen = await seenBy((await tenant.member(role)).token);
      expect(seen).toMatchObject({
        email: `${resident.email.slice(0, 1)}***@warga.test`,
        whatsapp: `${whatsapp.stored.slice(0, 4)}${"*".repeat(whatsapp.stored.length - 6)}${whatsapp.stored.slice(-2)}`,
      });
      expect(JSON.stringify(seen)).not.toContain(resident.email);
    }
  });
});
