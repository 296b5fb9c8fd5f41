import { describe, expect, it } from "vitest";
import { normaliseIndonesianMobile } from "../../../src/core/phone";
import { forgetTenant } from "../../../src/core/tenancy/registry";
import { requireCompleteProfile } from "../../../src/modules/identity/service";
import { memberCtx } from "../../helpers/contexts";
import { callJson, createTenant, expectProblem, operatorToken, setTenantStatus } from "../../helpers/harness";
import { queuedMessages } from "../../helpers/notify";
import { nextPhone } from "../members/helpers";

interface MeBody {
  name: string;
  whatsapp: string | null;
  whatsappVerified: boolean;
  emailVerified: boolean;
  unitId: string | null;
  unit: { id: string; block: string; number: string } | null;
  profileComplete: boolean;
}

const put = (token: string, body: Record<string, unknown>) =>
  callJson<MeBody>("/api/user/profile", { method: "PUT", token, body });

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
  it("sets name, number and unit, and profileComplete follows exactly those three", async () => {
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
      unit: { block: "B", number: "12A" },
      profileComplete: true,
    });
    const me = await callJson<MeBody>("/api/user/me", { token: warga.token });
    expect(me.body.profileComplete).toBe(true);
    expect(me.body.unitId).toBe(res.body.unitId);
  });

  it("creates a unit on first use and links the next resident of the same house to it", async () => {
    const tenant = await createTenant();
    const a = await tenant.member("warga");
    const b = await tenant.member("warga");
    const first = await put(a.token, {
      fullName: "Pak Ahmad",
      whatsapp: "081200000101",
      block: "C",
      houseNumber: "7",
    });
    const second = await put(b.token, {
      fullName: "Bu Ahmad",
      whatsapp: "+6281200000102",
      block: "c",
      houseNumber: "7",
    });
    expect(second.body.unitId).toBe(first.body.unitId);
    const admin = await tenant.member("admin");
    const units = await callJson<{ items: { id: string }[] }>("/api/kependudukan/units?block=C", {
      token: admin.token,
    });
    expect(units.body.items.map((u) => u.id)).toEqual([first.body.unitId]);
  });

  it("rejects a number that is not an Indonesian mobile, and missing fields", async () => {
    const warga = await (await createTenant()).member("warga");
    const base = { fullName: "Budi", whatsapp: "081234560000", block: "A", houseNumber: "1" };
    for (const patch of [
      { whatsapp: "0215551234" },
      { whatsapp: "+14155552671" },
      { fullName: "" },
      { block: "" },
    ]) {
      const res = await put(warga.token, { ...base, ...patch });
      expectProblem(res, 400, "invalid_input");
    }
    const { houseNumber: _, ...missing } = base;
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
    const updated = await put(warga.token, {
      fullName: "Wati",
      whatsapp: "081277770011",
      block: "e",
      houseNumber: "5",
    });
    const me = await callJson<MeBody>("/api/user/me", { token: warga.token });
    expect(me.body.unit).toEqual({ id: updated.body.unitId, block: "E", number: "5" });
  });

  it("still answers for a suspended community, without the unit its closed database holds", async () => {
    const tenant = await createTenant();
    const warga = await tenant.member("warga");
    await put(warga.token, { fullName: "Yono", whatsapp: "081277770012", block: "F", houseNumber: "6" });
    await setTenantStatus(tenant.slug, "suspended");
    forgetTenant(tenant.slug);
    const me = await callJson<MeBody & { memberships: unknown[] }>("/api/user/me", { token: warga.token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ name: "Yono", unitId: expect.any(String), unit: null });
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
    const me = await put(warga.token, {
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
