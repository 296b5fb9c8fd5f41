import { describe, expect, it } from "vitest";
import { normaliseIndonesianMobile } from "../../../src/core/phone";
import { forgetTenant } from "../../../src/core/tenancy/registry";
import { requireCompleteProfile } from "../../../src/modules/identity/service";
import { memberCtx } from "../../helpers/contexts";
import {
  callJson,
  createTenant,
  expectProblem,
  type Member,
  operatorToken,
  setTenantStatus,
  type TestTenant,
} from "../../helpers/harness";
import { queuedMessages } from "../../helpers/notify";
import { nextPhone } from "../members/helpers";
import { openPoll, vote } from "../musyawarah/helpers";
import { household } from "../surat/helpers";

interface MeBody {
  name: string;
  whatsapp: string | null;
  whatsappVerified: boolean;
  emailVerified: boolean;
  unitId: string | null;
  unit: { id: string; block: string; number: string } | null;
  unitRequest: {
    id: string;
    block: string;
    number: string;
    status: string;
    reason: string | null;
  } | null;
  profileComplete: boolean;
}

const put = (token: string, body: Record<string, unknown>) =>
  callJson<MeBody>("/api/user/profile", { method: "PUT", token, body });

const decide = (token: string, id: string, body: Record<string, unknown>) =>
  callJson<{ status: string; reason: string | null }>(`/api/kependudukan/corrections/${id}`, {
    method: "PUT",
    token,
    body,
  });

/** The profile with a house asked for, and the secretariat's acceptance of it: what a house takes now. */
async function granted(tenant: TestTenant, member: Member, body: Record<string, unknown>) {
  const asked = await put(member.token, body);
  expect(asked.status).toBe(200);
  const sek = await tenant.member("sekretaris");
  expect((await decide(sek.token, asked.body.unitRequest?.id ?? "", { status: "diterima" })).status).toBe(
    200,
  );
  const me = await callJson<MeBody>("/api/user/me", { token: member.token });
  expect(me.body.unitId).toEqual(expect.any(String));
  return me;
}

describe("WhatsApp numbers", () => {
  it("normalises 08…, +62… and 62… to the same E.164 digits", () => {
    for (const input of [
      "081234567890",
      "+6281234567890",
      "6281234567890",
      "0812-3456-7890",
      "+62 812 3456 7890",
    ]) {
      expect(normaliseIndonesianMobile(input)).toBe("6281234567890");
    }
  });

  it("refuses landlines, foreign and malformed numbers", () => {
    for (const input of [
      "0215551234",
      "+6591234567",
      "+14155552671",
      "0812",
      "08123456789012345",
      "08abc",
      "",
    ]) {
      expect(normaliseIndonesianMobile(input)).toBeNull();
    }
  });
});

describe("PUT /api/user/profile", () => {
  it("sets name and number, only asks for the house, and profileComplete waits for the granted house", async () => {
    const tenant = await createTenant();
    const warga = await tenant.member("warga");
    const before = await callJson<MeBody>("/api/user/me", { token: warga.token });
    expect(before.body.profileComplete).toBe(false);

    const res = await put(warga.token, {
      fullName: "Siti Aminah",
      whatsapp: "0812-1111-2222",
      block: " b ",
      houseNumber: "12a",
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "Siti Aminah",
      whatsapp: "6281211112222",
      unitId: null,
      unit: null,
      unitRequest: { block: "B", number: "12A", status: "diajukan", reason: null },
      profileComplete: false,
    });
    const sek = await tenant.member("sekretaris");
    expect((await decide(sek.token, res.body.unitRequest?.id ?? "", { status: "diterima" })).status).toBe(
      200,
    );
    const me = await callJson<MeBody>("/api/user/me", { token: warga.token });
    expect(me.body).toMatchObject({
      profileComplete: true,
      unit: { block: "B", number: "12A" },
      unitRequest: { status: "diterima" },
    });
    // Saving the profile again with the granted house asks for nothing.
    const again = await put(warga.token, {
      fullName: "Siti",
      whatsapp: "081211112222",
      block: "B",
      houseNumber: "12A",
    });
    expect(again.body).toMatchObject({ unitId: me.body.unitId, unitRequest: { status: "diterima" } });
    // Name and number alone are a valid profile save.
    expect((await put(warga.token, { fullName: "Siti A.", whatsapp: "081211112222" })).status).toBe(200);
  });

  it("rejects a number that is not an Indonesian mobile, and missing fields", async () => {
    const warga = await (await createTenant()).member("warga");
    const base = { fullName: "Budi", whatsapp: "081234560000", block: "A", houseNumber: "1" };
    for (const patch of [
      { whatsapp: "0215551234" },
      { whatsapp: "+14155552671" },
      { fullName: "" },
      { block: "" },
      // Block and number go together.
      { block: undefined },
    ]) {
      const res = await put(warga.token, { ...base, ...patch });
      expectProblem(res, 400, "invalid_input");
    }
    const { fullName: _, ...missing } = base;
    expectProblem(await put(warga.token, missing), 400, "invalid_input");
  });

  it("answers 409 whatsapp_taken for another account's number, and records nothing", async () => {
    const tenant = await createTenant();
    await tenant.member("warga", { whatsapp: "6281299990001" });
    const other = await tenant.member("warga");
    const res = await put(other.token, {
      fullName: "Budi",
      whatsapp: "081299990001",
      block: "A",
      houseNumber: "2",
    });
    expectProblem(res, 409, "whatsapp_taken");
    // The audit record was in the batch that failed: no record of a change that did not happen.
    const admin = await tenant.member("admin");
    const audit = await callJson<{ items: { targetId: string }[] }>("/api/audit?action=profile.update", {
      token: admin.token,
    });
    expect(audit.status).toBe(200);
    expect(audit.body.items).toEqual([]);
    await put(other.token, { fullName: "Budi", whatsapp: "081299990002", block: "A", houseNumber: "2" });
    const after = await callJson<{ items: { targetId: string; actorId: string }[] }>(
      "/api/audit?action=profile.update",
      { token: admin.token },
    );
    expect(after.body.items).toEqual([expect.objectContaining({ targetId: other.id, actorId: other.id })]);
  });

  it("needs a signed-in member of a tenant", async () => {
    const body = { fullName: "Budi", whatsapp: "081234560000", block: "A", houseNumber: "1" };
    expectProblem(await callJson("/api/user/profile", { method: "PUT", body }), 401, "unauthorized");
  });
});

describe("GET /api/user/me", () => {
  it("shows the unit of the current community, read from that community's registry", async () => {
    const tenant = await createTenant();
    const warga = await tenant.member("warga");
    const before = await callJson<MeBody>("/api/user/me", { token: warga.token });
    expect(before.body).toMatchObject({ unitId: null, unit: null });
    const me = await granted(tenant, warga, {
      fullName: "Wati",
      whatsapp: "081277770011",
      block: "e",
      houseNumber: "5",
    });
    expect(me.body.unit).toEqual({ id: me.body.unitId, block: "E", number: "5" });
  });

  it("still answers for a suspended community, without the unit its closed database holds", async () => {
    const tenant = await createTenant();
    const warga = await tenant.member("warga");
    await granted(tenant, warga, {
      fullName: "Yono",
      whatsapp: "081277770012",
      block: "F",
      houseNumber: "6",
    });
    await setTenantStatus(tenant.slug, "suspended");
    forgetTenant(tenant.slug);
    const me = await callJson<MeBody & { memberships: unknown[] }>("/api/user/me", { token: warga.token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      name: "Yono",
      unitId: expect.any(String),
      unit: null,
      unitRequest: null,
    });
    expect(me.body.memberships).toHaveLength(1);
  });
});

describe("modules that need a unit identity", () => {
  it("get 409 profile_incomplete until the profile is complete", async () => {
    const tenant = await createTenant();
    const warga = await tenant.member("warga");
    const ctx = await memberCtx(tenant.slug, warga, "warga");
    await expect(requireCompleteProfile({ ctx })).rejects.toMatchObject({
      code: "profile_incomplete",
      kind: "conflict",
    });
    const me = await granted(tenant, warga, {
      fullName: "Rina",
      whatsapp: "081277770001",
      block: "D",
      houseNumber: "4",
    });
    // No registry person yet: the secretariat links one (letters "for myself" wait for it).
    await expect(requireCompleteProfile({ ctx })).resolves.toEqual({
      unitId: me.body.unitId,
      personId: null,
    });
  });
});

describe("a house is granted, not claimed (issue 44, P2)", () => {
  it("gives a resident who declares a neighbour's house none of its bills nor its household ballot", async () => {
    const tenant = await createTenant();
    const home = await household(tenant);
    const bendahara = await tenant.member("bendahara");
    const dues = await callJson("/api/iuran/jenis", {
      token: bendahara.token,
      body: { name: "Iuran kebersihan", amount: 25_000, basis: "unit", startPeriod: "2026-01" },
    });
    expect(dues.status).toBe(201);
    expect(
      (await callJson("/api/iuran/tagihan/generate", { token: bendahara.token, body: { period: "2026-04" } }))
        .status,
    ).toBe(200);
    const unit = await callJson<{ block: string; number: string }>(`/api/kependudukan/units/${home.unitId}`, {
      token: home.sek.token,
    });
    const intruder = await tenant.member("warga");
    const claimed = await put(intruder.token, {
      fullName: "Tetangga Nakal",
      whatsapp: "081244440001",
      block: unit.body.block,
      houseNumber: unit.body.number,
    });
    expect(claimed.status).toBe(200);
    expect(claimed.body).toMatchObject({ unitId: null, unitRequest: { status: "diajukan" } });
    expectProblem(await callJson("/api/iuran/mine", { token: intruder.token }), 409, "profile_incomplete");
    expectProblem(
      await callJson("/api/kependudukan/household", { token: intruder.token }),
      409,
      "profile_incomplete",
    );
    const { poll } = await openPoll(tenant, { voterScope: "kk" });
    const option = poll.options[0]?.id ?? "";
    expectProblem(await vote(intruder.token, poll.id, [option]), 409, "profile_incomplete");
    // The household's own ballot is still theirs to cast.
    expect((await vote(home.warga.token, poll.id, [option])).status).toBe(200);
    const mine = await callJson<{ items: unknown[] }>("/api/iuran/mine", { token: home.warga.token });
    expect(mine.body.items).toHaveLength(1);
  });

  it("creates no unit for a made-up house; a newer request replaces the waiting one", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const warga = await tenant.member("warga");
    const body = { fullName: "Budi", whatsapp: "081244440002" };
    await put(warga.token, { ...body, block: "ZZ", houseNumber: "999" });
    const second = await put(warga.token, { ...body, block: "ZZ", houseNumber: "998" });
    const units = await callJson<{ items: unknown[] }>("/api/kependudukan/units?block=ZZ", {
      token: sek.token,
    });
    expect(units.body.items).toEqual([]);
    const waiting = await callJson<{ items: { id: string; field: string; house: unknown; value: string }[] }>(
      "/api/kependudukan/corrections?field=rumah&status=diajukan",
      { token: sek.token },
    );
    expect(waiting.body.items).toEqual([
      expect.objectContaining({
        id: second.body.unitRequest?.id,
        field: "rumah",
        house: { block: "ZZ", number: "998" },
        value: "Blok ZZ No. 998",
      }),
    ]);
    // A house is asked for through the profile only, never as a member correction.
    expectProblem(
      await callJson("/api/kependudukan/household/corrections", {
        token: warga.token,
        body: { field: "rumah", value: "ZZ/1" },
      }),
      400,
      "invalid_input",
    );
  });

  it("grants the house when the secretariat accepts, keeps a decline's reason, and stays in its community", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const admin = await tenant.member("admin");
    const newcomer = await tenant.member("warga");
    const asked = await put(newcomer.token, {
      fullName: "Pendatang",
      whatsapp: "081244440003",
      block: "D",
      houseNumber: "7",
    });
    const id = asked.body.unitRequest?.id ?? "";
    // Another community's secretary does not reach it.
    const other = await (await createTenant()).member("sekretaris");
    expectProblem(await decide(other.token, id, { status: "diterima" }), 404, "not_found");
    // A resident cannot decide their own request.
    expect((await decide(newcomer.token, id, { status: "diterima" })).status).toBe(403);
    expect((await decide(sek.token, id, { status: "diterima" })).status).toBe(200);
    expectProblem(await decide(sek.token, id, { status: "ditolak", reason: "x" }), 409, "invalid_transition");
    const me = await callJson<MeBody>("/api/user/me", { token: newcomer.token });
    expect(me.body).toMatchObject({ profileComplete: true, unit: { block: "D", number: "7" } });
    expect((await callJson("/api/iuran/mine", { token: newcomer.token })).status).toBe(200);
    const audit = await callJson<{ items: { targetId: string; detail: unknown }[] }>(
      "/api/audit?action=member.unit",
      { token: admin.token },
    );
    expect(audit.body.items).toEqual([
      expect.objectContaining({ targetId: newcomer.id, detail: expect.objectContaining({ via: "request" }) }),
    ]);

    const declined = await tenant.member("warga");
    const second = await put(declined.token, {
      fullName: "Penumpang",
      whatsapp: "081244440004",
      block: "D",
      houseNumber: "7",
    });
    const secondId = second.body.unitRequest?.id ?? "";
    expectProblem(await decide(sek.token, secondId, { status: "ditolak" }), 400, "invalid_input");
    expect((await decide(sek.token, secondId, { status: "ditolak", reason: "Bukan penghuni" })).status).toBe(
      200,
    );
    const after = await callJson<MeBody>("/api/user/me", { token: declined.token });
    expect(after.body).toMatchObject({
      unitId: null,
      unitRequest: { status: "ditolak", reason: "Bukan penghuni" },
    });
  });
});

describe("proving a contact (issue 44, P1)", () => {
  const ask = (token: string, channel = "whatsapp") =>
    callJson("/api/user/contacts/verify/request", { token, body: { channel } });
  const prove = (token: string, code: string, channel = "whatsapp") =>
    callJson("/api/user/contacts/verify", { token, body: { channel, code } });
  async function codeSentTo(recipient: string): Promise<string> {
    const message = (await queuedMessages({ recipient })).at(-1);
    const match = /Kode verifikasi Warga Anda: (\d{6})/.exec(JSON.stringify(message?.payload));
    if (!match?.[1]) {
      throw new Error(`no code was sent to ${recipient}`);
    }
    return match[1];
  }
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

  it("keeps a typed number unverified until the code sent to it comes back, once", async () => {
    const tenant = await createTenant();
    const warga = await tenant.member("warga");
    const phone = nextPhone();
    const saved = await put(warga.token, {
      fullName: "Sari",
      whatsapp: phone.typed,
      block: "A",
      houseNumber: "3",
    });
    expect(saved.body).toMatchObject({
      whatsapp: phone.stored,
      whatsappVerified: false,
      emailVerified: true,
    });

    expectProblem(await prove(warga.token, "123456"), 400, "contact_code_invalid");
    const sent = await ask(warga.token);
    expect(sent.status).toBe(202);
    expect(sent.body).toEqual({ channel: "whatsapp", expiresInSeconds: 600 });
    const code = await codeSentTo(phone.stored);
    expect(JSON.stringify(sent.body)).not.toContain(code);
    expectProblem(await prove(warga.token, wrong(code)), 400, "contact_code_invalid");
    const proved = await prove(warga.token, code);
    expect(proved.status).toBe(200);
    expect(proved.body).toMatchObject({ channel: "whatsapp", contact: phone.stored });
    expectProblem(await prove(warga.token, code), 400, "contact_code_invalid");
    const me = await callJson<MeBody>("/api/user/me", { token: warga.token });
    expect(me.body.whatsappVerified).toBe(true);
    expectProblem(await ask(warga.token), 409, "contact_already_verified");

    // Changing the number drops the proof; typing the same one keeps it.
    const same = await put(warga.token, {
      fullName: "Sari",
      whatsapp: phone.typed,
      block: "A",
      houseNumber: "3",
    });
    expect(same.body.whatsappVerified).toBe(true);
    const moved = await put(warga.token, {
      fullName: "Sari",
      whatsapp: nextPhone().typed,
      block: "A",
      houseNumber: "3",
    });
    expect(moved.body.whatsappVerified).toBe(false);
  });

  it("spends a code after five wrong tries, and refuses a code for a number the profile no longer holds", async () => {
    const tenant = await createTenant();
    const warga = await tenant.member("warga");
    const phone = nextPhone();
    await put(warga.token, { fullName: "Tono", whatsapp: phone.typed, block: "A", houseNumber: "4" });
    await ask(warga.token);
    const code = await codeSentTo(phone.stored);
    for (let i = 0; i < 5; i++) {
      expectProblem(await prove(warga.token, wrong(code)), 400, "contact_code_invalid");
    }
    expectProblem(await prove(warga.token, code), 400, "contact_code_invalid");

    await ask(warga.token);
    const second = await codeSentTo(phone.stored);
    await put(warga.token, { fullName: "Tono", whatsapp: nextPhone().typed, block: "A", houseNumber: "4" });
    expectProblem(await prove(warga.token, second), 400, "contact_code_invalid");
  });

  it("limits codes to one number, and refuses a number another account has proven until an operator releases it", async () => {
    const tenant = await createTenant();
    const phone = nextPhone();
    const holder = await tenant.member("warga", { whatsapp: phone.stored });
    const claimer = await tenant.member("warga");
    const claim = { fullName: "Klaim", whatsapp: phone.typed, block: "B", houseNumber: "1" };
    expectProblem(await put(claimer.token, claim), 409, "whatsapp_taken");

    const release = (token: string) =>
      callJson<{ userId: string }>("/api/platform/contacts/whatsapp/release", {
        token,
        body: { whatsapp: phone.typed, reason: "KTP dan kartu SIM diperiksa" },
      });
    expectProblem(await release(claimer.token), 403, "forbidden_role");
    const operator = await operatorToken();
    const released = await release(operator);
    expect(released.body).toEqual({ userId: holder.id, released: true });
    expectProblem(await release(operator), 404, "not_found");
    const audit = await callJson<{ items: { action: string; targetId: string }[] }>(
      "/api/platform/audit?action=contact.release",
      { token: operator },
    );
    expect(audit.body.items).toEqual([expect.objectContaining({ targetId: holder.id })]);

    expect((await put(claimer.token, claim)).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      expect((await ask(claimer.token)).status).toBe(202);
    }
    expectProblem(await ask(claimer.token), 429, "rate_limited");
  });

  it("says no_contact for an email the account does not have, and needs a signed-in user", async () => {
    expectProblem(
      await callJson("/api/user/contacts/verify/request", { body: { channel: "whatsapp" } }),
      401,
      "unauthorized",
    );
    const warga = await (await createTenant()).member("warga");
    expectProblem(await ask(warga.token), 409, "no_contact");
    expectProblem(await ask(warga.token, "email"), 409, "contact_already_verified");
    expectProblem(await prove(warga.token, "12345"), 400, "invalid_input");
  });
});
