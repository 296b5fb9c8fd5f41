import { inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "../../../src/core/db/identity-schema";
import { platformDb } from "../../../src/core/db/platform";
import { findOrCreateUnit, unitsByIds } from "../../../src/modules/kependudukan/service";
import { auditTrail, memberCtx } from "../../helpers/contexts";
import { bindings, callJson, createTenant, expectProblem } from "../../helpers/harness";

interface Card {
  id: string;
  kkNumber: string;
  headNik: string;
  memberCount: number;
  members: { id: string; nik: string; relationship: string }[];
}

let n = 0;
/** A valid NIK or KK number: region 327301, born `ddmmyy` (day + 40 for a woman), unique in the file. */
const digits = (ddmmyy = "010180") => `327301${ddmmyy}${String(++n).padStart(4, "0")}`;

async function setup() {
  const tenant = await createTenant();
  const sek = await tenant.member("sekretaris");
  const unit = await callJson<{ id: string }>("/api/kependudukan/units", {
    token: sek.token,
    body: { block: "A", number: "7" },
  });
  return { tenant, sek, unitId: unit.body.id };
}

describe("family cards (KK)", () => {
  it("registers a KK with its head as a member; lists mask NIKs, the staff detail shows them whole", async () => {
    const { sek, unitId } = await setup();
    const kkNumber = digits();
    const headNik = digits("410280");
    const created = await callJson<Card>("/api/kependudukan/kk", {
      token: sek.token,
      body: { kkNumber, unitId, headName: "Siti Aminah", headNik, headSex: "P", headBirthDate: "1980-02-01" },
    });
    expect(created.status).toBe(201);
    expect(created.body.members).toEqual([
      expect.objectContaining({ nik: headNik, relationship: "kepala_keluarga" }),
    ]);
    const child = digits("450315");
    await callJson(`/api/kependudukan/kk/${created.body.id}/members`, {
      token: sek.token,
      body: { name: "Dewi", nik: child, relationship: "anak", sex: "P" },
    });
    const list = await callJson<{ items: Card[] }>("/api/kependudukan/kk?q=Siti", { token: sek.token });
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]).toMatchObject({
      headNik: `${headNik.slice(0, 4)}********${headNik.slice(-4)}`,
      kkNumber: `${kkNumber.slice(0, 4)}********${kkNumber.slice(-4)}`,
      memberCount: 2,
    });
    expect(JSON.stringify(list.body)).not.toContain(headNik);
    const detail = await callJson<Card>(`/api/kependudukan/kk/${created.body.id}`, { token: sek.token });
    expect(detail.body.members.map((m) => m.nik)).toEqual([headNik, child]);
  });

  it("refuses duplicate KK numbers and NIKs (409), a bad NIK (400) and an unknown unit (404)", async () => {
    const { sek, unitId } = await setup();
    const kkNumber = digits();
    const headNik = digits();
    const body = { kkNumber, unitId, headName: "Agus", headNik, headSex: "L" };
    expect((await callJson("/api/kependudukan/kk", { token: sek.token, body })).status).toBe(201);
    expectProblem(
      await callJson("/api/kependudukan/kk", { token: sek.token, body: { ...body, headNik: digits() } }),
      409,
      "kk_number_taken",
    );
    expectProblem(
      await callJson("/api/kependudukan/kk", { token: sek.token, body: { ...body, kkNumber: digits() } }),
      409,
      "nik_taken",
    );
    expectProblem(
      await callJson("/api/kependudukan/kk", {
        token: sek.token,
        body: { ...body, kkNumber: digits(), headNik: "123" },
      }),
      400,
      "invalid_input",
    );
    // 16 digits, but day 32 is no date of birth; day 41 (a woman) for a man; an unknown province.
    for (const [headNik, why] of [
      ["3273013201800001", "date"],
      ["3273014101800001", "sex"],
      ["9973010101800001", "province"],
    ] as const) {
      const res = await callJson("/api/kependudukan/kk", {
        token: sek.token,
        body: { ...body, kkNumber: digits(), headNik },
      });
      expectProblem(res, 400, "invalid_nik");
      expect(why).toBeTruthy();
    }
    expectProblem(
      await callJson("/api/kependudukan/kk", {
        token: sek.token,
        body: { ...body, kkNumber: digits(), headNik: digits(), unitId: "nope" },
      }),
      404,
      "unit_not_found",
    );
  });

  it("shows a resident their own household, masked, and nothing of another tenant", async () => {
    const { tenant, sek, unitId } = await setup();
    const headNik = digits();
    await callJson("/api/kependudukan/kk", {
      token: sek.token,
      body: { kkNumber: digits(), unitId, headName: "Budi", headNik, headSex: "L" },
    });
    const warga = await tenant.member("warga", { unitId, whatsapp: "6281300000001" });
    const mine = await callJson<{ members: { nik: string; name: string }[] }>("/api/kependudukan/household", {
      token: warga.token,
    });
    expect(mine.status).toBe(200);
    expect(mine.body.members).toEqual([
      expect.objectContaining({ name: "Budi", nik: `${headNik.slice(0, 4)}********${headNik.slice(-4)}` }),
    ]);
    const other = await (await createTenant()).member("sekretaris");
    const card = await callJson<{ items: Card[] }>("/api/kependudukan/kk", { token: sek.token });
    expectProblem(
      await callJson(`/api/kependudukan/kk/${card.body.items[0]?.id}`, { token: other.token }),
      404,
      "not_found",
    );
    expectProblem(await callJson("/api/kependudukan/kk", { token: warga.token }), 403, "forbidden_role");
  });

  it("marks the caller in their household by their account's link to a person, never by name", async () => {
    const { tenant, sek, unitId } = await setup();
    // Father and son share a name, as Indonesian families sometimes do.
    const card = await callJson<Card>("/api/kependudukan/kk", {
      token: sek.token,
      body: { kkNumber: digits(), unitId, headName: "Budi Santoso", headNik: digits(), headSex: "L" },
    });
    const withSon = await callJson<Card>(`/api/kependudukan/kk/${card.body.id}/members`, {
      token: sek.token,
      body: { name: "Budi Santoso", nik: digits("010105"), relationship: "anak", sex: "L" },
    });
    const father = card.body.members[0]?.id ?? "";
    const son = withSon.body.members.find((m) => m.id !== father)?.id ?? "";
    // Another tenant's registry: its person id can never be this tenant's.
    const elsewhere = await createTenant();
    const elsewhereSek = await elsewhere.member("sekretaris");
    const farUnit = await callJson<{ id: string }>("/api/kependudukan/units", {
      token: elsewhereSek.token,
      body: { block: "A", number: "7" },
    });
    const farCard = await callJson<Card>("/api/kependudukan/kk", {
      token: elsewhereSek.token,
      body: {
        kkNumber: digits(),
        unitId: farUnit.body.id,
        headName: "Budi Santoso",
        headNik: digits(),
        headSex: "L",
      },
    });
    const foreign = farCard.body.members[0]?.id ?? "";

    const sonsAccount = await tenant.member("warga", { unitId, personId: son, whatsapp: "6281300000101" });
    const unlinked = await tenant.member("warga", { unitId, whatsapp: "6281300000102" });
    const forged = await tenant.member("warga", { unitId, personId: foreign, whatsapp: "6281300000103" });
    await platformDb(bindings)
      .update(users)
      .set({ name: "Budi Santoso" })
      .where(inArray(users.id, [sonsAccount.id, unlinked.id, forged.id]));
    type Seen = { personId: string | null; members: { id: string; name: string; isMe: boolean }[] };
    const seen = async (token: string) => {
      const res = await callJson<Seen>("/api/kependudukan/household", { token });
      expect(res.status).toBe(200);
      return res.body;
    };

    const mine = await seen(sonsAccount.token);
    expect(mine.personId).toBe(son);
    expect(mine.members.map((m) => [m.id, m.name, m.isMe])).toEqual([
      [father, "Budi Santoso", false],
      [son, "Budi Santoso", true],
    ]);
    for (const token of [unlinked.token, forged.token]) {
      expect((await seen(token)).members.map((m) => m.isMe)).toEqual([false, false]);
    }
    expect((await seen(unlinked.token)).personId).toBeNull();
  });
});

describe("registry records and verbs", () => {
  it("audits units, cards and members in their own batch; a refused duplicate records nothing", async () => {
    const { tenant, sek, unitId } = await setup();
    const admin = await tenant.member("admin");
    const body = { kkNumber: digits(), unitId, headName: "Rudi", headNik: digits(), headSex: "L" };
    const card = await callJson<Card>("/api/kependudukan/kk", { token: sek.token, body });
    await callJson(`/api/kependudukan/kk/${card.body.id}/members`, {
      token: sek.token,
      body: { name: "Ani", nik: digits("410185"), relationship: "istri", sex: "P" },
    });
    // The community's own records only (the trail also holds the operator's tenant.create).
    const registry = async () =>
      (await auditTrail(admin.token)).filter((e) => /^(unit|kk)\./.test(e.action)).map((e) => e.action);
    const before = await registry();
    expect(before).toEqual(["unit.create", "kk.create", "kk.member.add"]);

    expectProblem(
      await callJson("/api/kependudukan/units", { token: sek.token, body: { block: "a", number: "7" } }),
      409,
      "unit_exists",
    );
    expectProblem(
      await callJson("/api/kependudukan/kk", { token: sek.token, body: { ...body, headNik: digits() } }),
      409,
      "kk_number_taken",
    );
    expectProblem(
      await callJson(`/api/kependudukan/kk/${card.body.id}/members`, {
        token: sek.token,
        body: { name: "Ani", nik: body.headNik, relationship: "anak", sex: "L" },
      }),
      409,
      "nik_taken",
    );
    expect(await registry()).toEqual(before);
    expect(JSON.stringify(await auditTrail(admin.token))).not.toContain(body.headNik);
  });

  it("finds or creates a unit by its written form and reads units by id (verbs other modules call)", async () => {
    const { tenant, sek, unitId } = await setup();
    const ctx = await memberCtx(tenant.slug, sek, "sekretaris");
    const same = await findOrCreateUnit({ ctx, input: { block: " a ", number: "7" } });
    expect(same.id).toBe(unitId);
    const created = await findOrCreateUnit({ ctx, input: { block: "b  2", number: "10a" } });
    expect(created).toMatchObject({ block: "B 2", number: "10A" });
    const again = await findOrCreateUnit({ ctx, input: { block: "B 2", number: "10A" } });
    expect(again.id).toBe(created.id);
    const found = await unitsByIds({ ctx, ids: [unitId, created.id, unitId, "nope"] });
    expect([...found.values()]).toEqual([
      { id: unitId, block: "A", number: "7" },
      { id: created.id, block: "B 2", number: "10A" },
    ]);
  });
});
