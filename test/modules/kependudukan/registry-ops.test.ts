import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { TENANT_MIGRATIONS } from "../../../src/core/db/tenant-migrations.generated";
import { openCursor } from "../../../src/core/http/cursor";
import worker from "../../../src/index";
import { billingTargetsQuery } from "../../../src/modules/kependudukan/service";
import { readWorkbook, toCsv, writeWorkbook } from "../../../src/platform/spreadsheets";
import { jakartaTime, setNow } from "../../helpers/clock";
import { auditTrail, memberCtx } from "../../helpers/contexts";
import { countingD1, tenantD1 } from "../../helpers/d1";
import {
  bindings,
  call,
  callJson,
  createTenant,
  expectProblem,
  expectRefusedMove,
  type Member,
  setTenantFlags,
} from "../../helpers/harness";

interface Member16 {
  id: string;
  nik: string;
  name: string;
  relationship: string;
  livingStatus: string;
  occupation: string | null;
}
interface Card {
  id: string;
  kkNumber: string;
  headName: string;
  status: string;
  statusDate: string | null;
  memberCount: number;
  members: Member16[];
  vehicles: { id: string; plate: string }[];
}

let n = 0;
/** A valid NIK or KK number: region 320402, born `ddmmyy` (day + 40 for a woman), unique in the file. */
const nik = (ddmmyy = "150385") => `320402${ddmmyy}${String(++n).padStart(4, "0")}`;
const base = "/api/kependudukan";

async function setup() {
  const tenant = await createTenant();
  const sek = await tenant.member("sekretaris");
  const unit = await callJson<{ id: string }>(`${base}/units`, {
    token: sek.token,
    body: { block: "D", number: "12", latitude: -6.9175, longitude: 107.6191, occupancy: "pemilik" },
  });
  const card = await newCard(sek, unit.body.id, "Hendra Wijaya");
  return { tenant, sek, unitId: unit.body.id, card };
}

async function newCard(sek: Member, unitId: string, headName: string, headNik = nik()) {
  const res = await callJson<Card>(`${base}/kk`, {
    token: sek.token,
    body: {
      kkNumber: nik(),
      unitId,
      headName,
      headNik,
      headSex: "L",
      headBirthDate: "1985-03-15",
      headReligion: "islam",
      headResidenceStatus: "tetap",
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe("registry edits, vehicles and units", () => {
  it("edits and deletes members and cards, keeps a head, and refuses duplicates with nik_taken / plate_taken", async () => {
    const { tenant, sek, unitId, card } = await setup();
    const wife = nik("521088");
    const withWife = await callJson<Card>(`${base}/kk/${card.id}/members`, {
      token: sek.token,
      body: {
        name: "Sri Lestari",
        nik: wife,
        relationship: "istri",
        sex: "P",
        birthDate: "1988-10-12",
        religion: "islam",
        education: "d4_s1",
        occupation: "Guru",
        maritalStatus: "kawin",
        residenceStatus: "tetap",
      },
    });
    expect(withWife.status).toBe(201);
    const sri = withWife.body.members.find((m) => m.nik === wife);
    expect(sri).toMatchObject({ occupation: "Guru", livingStatus: "hidup" });
    // A NIK whose date disagrees with birthDate, and one coding a man for a woman: 400 invalid_nik.
    expectProblem(
      await callJson(`${base}/kk/${card.id}/members/${sri?.id}`, {
        method: "PUT",
        token: sek.token,
        body: { birthDate: "1988-10-13" },
      }),
      400,
      "invalid_nik",
    );
    expectProblem(
      await callJson(`${base}/kk/${card.id}/members/${sri?.id}`, {
        method: "PUT",
        token: sek.token,
        body: { sex: "L" },
      }),
      400,
      "invalid_nik",
    );
    // Partial update: only the occupation changes.
    const edited = await callJson<Card>(`${base}/kk/${card.id}/members/${sri?.id}`, {
      method: "PUT",
      token: sek.token,
      body: { occupation: "Kepala Sekolah" },
    });
    expect(edited.body.members.find((m) => m.id === sri?.id)).toMatchObject({
      occupation: "Kepala Sekolah",
      nik: wife,
    });
    // The NIK of another person in the tenant (a man born the same day as Hendra): 409 nik_taken.
    const other = await newCard(sek, unitId, "Agus Salim");
    expectProblem(
      await callJson(`${base}/kk/${card.id}/members/${card.members[0]?.id}`, {
        method: "PUT",
        token: sek.token,
        body: { nik: other.members[0]?.nik },
      }),
      409,
      "nik_taken",
    );
    const head = card.members[0];
    expectProblem(
      await callJson(`${base}/kk/${card.id}/members/${head?.id}`, { method: "DELETE", token: sek.token }),
      409,
      "kk_head_required",
    );
    // Sri becomes the head: Hendra stays on the card as famili_lain and the card's head follows.
    const moved = await callJson<Card>(`${base}/kk/${card.id}/members/${sri?.id}`, {
      method: "PUT",
      token: sek.token,
      body: { relationship: "kepala_keluarga" },
    });
    expect(moved.body.headName).toBe("Sri Lestari");
    expect(moved.body.members.find((m) => m.id === head?.id)?.relationship).toBe("famili_lain");
    const afterDelete = await callJson<Card>(`${base}/kk/${card.id}/members/${head?.id}`, {
      method: "DELETE",
      token: sek.token,
    });
    expect(afterDelete.body.members.map((m) => m.name)).toEqual(["Sri Lestari"]);

    // Vehicles: the plate is normalised and unique in the tenant.
    const bike = await callJson<{ id: string; plate: string }>(`${base}/kk/${card.id}/vehicles`, {
      token: sek.token,
      body: { plate: " d  5678   xy ", kind: "motor", brand: "Honda", model: "Beat", colour: "Hitam" },
    });
    expect(bike.status).toBe(201);
    expect(bike.body.plate).toBe("D 5678 XY");
    expectProblem(
      await callJson(`${base}/kk/${other.id}/vehicles`, {
        token: sek.token,
        body: { plate: "D 5678 XY", kind: "mobil" },
      }),
      409,
      "plate_taken",
    );
    // Issue 49: the same plate spelled with dashes, no spaces or in lower case is the same plate.
    for (const spelling of ["d-5678-XY", "D5678XY", "d 5678-xy"]) {
      expectProblem(
        await callJson(`${base}/kk/${other.id}/vehicles`, {
          token: sek.token,
          body: { plate: spelling, kind: "mobil" },
        }),
        409,
        "plate_taken",
      );
    }
    expectProblem(
      await callJson(`${base}/kk/${other.id}/vehicles`, {
        token: sek.token,
        body: { plate: "D_5678", kind: "mobil" },
      }),
      400,
      "invalid_input",
    );
    const car = await callJson<{ colour: string }>(`${base}/kk/${card.id}/vehicles/${bike.body.id}`, {
      method: "PUT",
      token: sek.token,
      body: { colour: "Merah" },
    });
    expect(car.body.colour).toBe("Merah");
    // Another card's vehicle id under this card: 404.
    expectProblem(
      await callJson(`${base}/kk/${other.id}/vehicles/${bike.body.id}`, {
        method: "DELETE",
        token: sek.token,
      }),
      404,
      "not_found",
    );
    const detail = await callJson<Card>(`${base}/kk/${card.id}`, { token: sek.token });
    expect(detail.body.vehicles.map((v) => v.plate)).toEqual(["D 5678 XY"]);

    // Card edits: number conflicts, status with its day.
    expectProblem(
      await callJson(`${base}/kk/${card.id}`, {
        method: "PUT",
        token: sek.token,
        body: { kkNumber: other.kkNumber },
      }),
      409,
      "kk_number_taken",
    );
    const noted = await callJson<Card & { notes: string }>(`${base}/kk/${card.id}`, {
      method: "PUT",
      token: sek.token,
      body: { notes: "Rumah sudut, pagar hijau", status: "pindah", statusDate: "2026-03-15" },
    });
    expect(noted.body).toMatchObject({
      notes: "Rumah sudut, pagar hijau",
      status: "pindah",
      statusDate: "2026-03-15",
    });

    // Deleting a card takes its members and vehicles in one batch; the plate is free again.
    expect((await call(`${base}/kk/${card.id}`, { method: "DELETE", token: sek.token })).status).toBe(204);
    expectProblem(await callJson(`${base}/kk/${card.id}`, { token: sek.token }), 404, "not_found");
    const again = await callJson(`${base}/kk/${other.id}/vehicles`, {
      token: sek.token,
      body: { plate: "D 5678 XY", kind: "motor" },
    });
    expect(again.status).toBe(201);

    const admin = await tenant.member("admin");
    const trail = await auditTrail(admin.token);
    const actions = trail.map((e) => e.action);
    for (const action of [
      "kk.member.update",
      "kk.member.delete",
      "kk.vehicle.add",
      "kk.update",
      "kk.delete",
    ]) {
      expect(actions).toContain(action);
    }
    const text = JSON.stringify(trail);
    expect(text).not.toContain(wife);
    expect(text).not.toContain(other.kkNumber);
  });

  it("changes units, refuses to delete a used one (409 unit_in_use), and serves the map as GeoJSON", async () => {
    const { tenant, sek, unitId } = await setup();
    const empty = await callJson<{ id: string }>(`${base}/units`, {
      token: sek.token,
      body: { block: "E", number: "1" },
    });
    const changed = await callJson<{ occupancy: string; latitude: number }>(
      `${base}/units/${empty.body.id}`,
      {
        method: "PUT",
        token: sek.token,
        body: { occupancy: "kosong", latitude: -6.918, longitude: 107.62 },
      },
    );
    expect(changed.body).toMatchObject({ occupancy: "kosong", latitude: -6.918 });
    expectProblem(
      await callJson(`${base}/units/${empty.body.id}`, {
        method: "PUT",
        token: sek.token,
        body: { block: "D", number: "12" },
      }),
      409,
      "unit_exists",
    );
    expectProblem(
      await callJson(`${base}/units/${empty.body.id}`, {
        method: "PUT",
        token: sek.token,
        body: { latitude: 1 },
      }),
      400,
      "invalid_input",
    );
    expectProblem(
      await callJson(`${base}/units/${unitId}`, { method: "DELETE", token: sek.token }),
      409,
      "unit_in_use",
    );
    // A resident account naming the unit keeps it too.
    const lone = await callJson<{ id: string }>(`${base}/units`, {
      token: sek.token,
      body: { block: "E", number: "2" },
    });
    await tenant.member("warga", { unitId: lone.body.id, whatsapp: "6281377700001" });
    expectProblem(
      await callJson(`${base}/units/${lone.body.id}`, { method: "DELETE", token: sek.token }),
      409,
      "unit_in_use",
    );

    const geo = await call(`${base}/units?format=geojson`, { token: sek.token });
    expect(geo.headers.get("Content-Type")).toContain("application/geo+json");
    const collection = (await geo.json()) as {
      type: string;
      features: { id: string; geometry: { coordinates: number[] }; properties: Record<string, unknown> }[];
    };
    expect(collection.type).toBe("FeatureCollection");
    expect(collection.features.map((f) => f.id).sort()).toEqual([unitId, empty.body.id].sort());
    const home = collection.features.find((f) => f.id === unitId);
    expect(home?.geometry.coordinates).toEqual([107.6191, -6.9175]);
    expect(home?.properties).toMatchObject({
      block: "D",
      number: "12",
      occupancy: "pemilik",
      families: 1,
      persons: 1,
    });
    const byAccept = await call(`${base}/units`, {
      token: sek.token,
      headers: { Accept: "application/geo+json" },
    });
    expect(((await byAccept.json()) as { type: string }).type).toBe("FeatureCollection");

    expect(
      (await call(`${base}/units/${empty.body.id}`, { method: "DELETE", token: sek.token })).status,
    ).toBe(204);
    expectProblem(await callJson(`${base}/units/${empty.body.id}`, { token: sek.token }), 404, "not_found");
  });

  it("searches names, NIK and KK prefixes, plates and blocks in one query per page; statistics count what lives here", async () => {
    const { tenant, sek, unitId, card } = await setup();
    const b = await callJson<{ id: string }>(`${base}/units`, {
      token: sek.token,
      body: { block: "F", number: "3" },
    });
    const second = await newCard(sek, b.body.id, "Bambang Sutrisno");
    await callJson(`${base}/kk/${second.id}/members`, {
      token: sek.token,
      body: {
        name: "Putri Sutrisno",
        nik: nik("470715"),
        relationship: "anak",
        sex: "P",
        birthDate: "2015-07-07",
        religion: "kristen",
      },
    });
    await callJson(`${base}/kk/${second.id}/vehicles`, {
      token: sek.token,
      body: { plate: "B 1999 KJT", kind: "mobil" },
    });
    const search = async (q: string) =>
      (
        await callJson<{ items: Card[] }>(`${base}/kk?q=${encodeURIComponent(q)}`, { token: sek.token })
      ).body.items.map((c) => c.id);
    expect(await search("putri")).toEqual([second.id]);
    expect(await search("HENDRA")).toEqual([card.id]);
    expect(await search(card.kkNumber.slice(0, 12))).toEqual(expect.arrayContaining([card.id]));
    expect(await search(second.members[0]?.nik ?? "")).toEqual([second.id]);
    expect(await search("1999 kj")).toEqual([second.id]);
    expect(await search("f")).toEqual([second.id]);
    expect(await search("tidak ada")).toEqual([]);
    // A mid-word term matches, a rename is found by the new name and no longer by the old one, a
    // name two cards share finds both, and a two-letter term still matches.
    expect(await search("UTRISN")).toEqual([second.id]);
    const putri = (await callJson<Card>(`${base}/kk/${second.id}`, { token: sek.token })).body.members.find(
      (m) => m.name === "Putri Sutrisno",
    );
    const renamed = await callJson<Card>(`${base}/kk/${second.id}/members/${putri?.id}`, {
      method: "PUT",
      token: sek.token,
      body: { name: "Kirana Wijaya" },
    });
    expect(renamed.status).toBe(200);
    expect(await search("putri")).toEqual([]);
    expect(await search("kirana")).toEqual([second.id]);
    expect(await search("wijaya")).toEqual([card.id, second.id].sort());
    expect(await search("mb")).toEqual([second.id]);
    // `q` can be a NIK: declared secret, so it is redacted from the access log and never cached.
    const byNik = await call(`${base}/kk?q=${card.members[0]?.nik}`, { token: sek.token });
    expect(byNik.headers.get("Cache-Control")).toContain("no-store");
    const page = await callJson<{ items: Card[]; nextCursor: string | null }>(`${base}/kk?limit=1`, {
      token: sek.token,
    });
    expect(page.body.items).toHaveLength(1);
    expect(openCursor("/api/kependudukan/kk", page.body.nextCursor ?? "")).toBe(page.body.items[0]?.id);
    const rest = await callJson<{ items: Card[] }>(`${base}/kk?limit=1&cursor=${page.body.nextCursor}`, {
      token: sek.token,
    });
    expect(rest.body.items[0]?.memberCount).toBe(2);

    // Ages on the Jakarta date of the clock: on 2026-11-20, born 1985-03-15 is 40–44 and 2015-07-07 is 10–14.
    setNow(jakartaTime("2026-11-20"));
    const stats = await callJson<Record<string, unknown>>(`${base}/statistik`, { token: sek.token });
    expect(stats.body).toMatchObject({
      totalFamilies: 2,
      totalPersons: 3,
      totalVehicles: 1,
      perBlock: [
        { block: "D", families: 1, persons: 1, vehicles: 0 },
        { block: "F", families: 1, persons: 2, vehicles: 1 },
      ],
      sex: [
        { key: "L", count: 2 },
        { key: "P", count: 1 },
      ],
      religion: expect.arrayContaining([
        { key: "islam", count: 2 },
        { key: "kristen", count: 1 },
      ]),
      residenceStatus: expect.arrayContaining([{ key: "tetap", count: 2 }]),
      livingStatus: [
        { key: "hidup", count: 3 },
        { key: "meninggal", count: 0 },
      ],
    });
    const ages = stats.body.ageGroups as { key: string; count: number }[];
    expect(ages.find((a) => a.key === "10-14")?.count).toBe(1);
    expect(ages.find((a) => a.key === "40-44")?.count).toBe(2);
    expect(ages).toHaveLength(17);
    // The dashboard counts registry persons living here, not accounts.
    const admin = await tenant.member("admin");
    const dash = await callJson<{ indicators: { key: string; value: number }[] }>(
      "/api/statistik/operasional",
      {
        token: admin.token,
      },
    );
    expect(dash.body.indicators).toContainEqual({
      key: "totalResidents",
      label: "Total registered residents",
      value: 3,
    });
    void unitId;
  });

  it("keeps each card's search text as members and vehicles come, change and go, by the API or by plain SQL", async () => {
    const { tenant, sek, unitId, card } = await setup();
    const db = tenantD1(tenant);
    const search = async (q: string) =>
      (
        await callJson<{ items: Card[] }>(`${base}/kk?q=${encodeURIComponent(q)}`, { token: sek.token })
      ).body.items.map((c) => c.id);
    const withSri = await callJson<Card>(`${base}/kk/${card.id}/members`, {
      token: sek.token,
      body: {
        name: "Sri Lestari",
        nik: nik("521088"),
        relationship: "istri",
        sex: "P",
        birthDate: "1988-10-12",
        religion: "islam",
      },
    });
    const sri = withSri.body.members.find((m) => m.name === "Sri Lestari");
    const car = await callJson<{ id: string }>(`${base}/kk/${card.id}/vehicles`, {
      token: sek.token,
      body: { plate: "d 4321 xy", kind: "mobil" },
    });
    expect(await search("lestari")).toEqual([card.id]);
    expect(await search("D  4321")).toEqual([card.id]);

    // A plate changed, then removed; a member removed.
    await callJson(`${base}/kk/${card.id}/vehicles/${car.body.id}`, {
      method: "PUT",
      token: sek.token,
      body: { plate: "D 9876 XY" },
    });
    expect(await search("4321")).toEqual([]);
    expect(await search("9876")).toEqual([card.id]);
    expect(
      (await call(`${base}/kk/${card.id}/vehicles/${car.body.id}`, { method: "DELETE", token: sek.token }))
        .status,
    ).toBe(204);
    expect(await search("9876")).toEqual([]);

    // Rows written below the API (an import, an archive restore) are kept by the same triggers: a member
    // moved to another card is found on that card only.
    const other = await newCard(sek, unitId, "Joko Susilo");
    await db
      .prepare("UPDATE family_members SET family_card_id = ? WHERE id = ?")
      .bind(other.id, sri?.id)
      .run();
    expect(await search("lestari")).toEqual([other.id]);
    expect(
      (await call(`${base}/kk/${other.id}/members/${sri?.id}`, { method: "DELETE", token: sek.token }))
        .status,
    ).toBe(200);
    expect(await search("lestari")).toEqual([]);
    expect(await search("joko")).toEqual([other.id]);

    // The migration's backfill writes the same text the triggers keep.
    const kept = await db
      .prepare("SELECT id, search_text FROM family_cards ORDER BY id")
      .all<{ id: string; search_text: string }>();
    const backfill = TENANT_MIGRATIONS.find((m) => m.name === "0012_registry_search.sql")?.statements.find(
      (s) => s.includes("UPDATE `family_cards` SET `search_text`") && !s.includes("TRIGGER"),
    );
    expect(backfill).toBeDefined();
    await db.prepare("UPDATE family_cards SET search_text = ''").run();
    expect(await search("hendra")).toEqual([]);
    await db.prepare(backfill ?? "").run();
    expect((await db.prepare("SELECT id, search_text FROM family_cards ORDER BY id").all()).results).toEqual(
      kept.results,
    );
    expect(await search("hendra")).toEqual([card.id]);
  });

  it("chooses a search page from the search index alone, in one round trip, and reads only the page's rows", async () => {
    const { tenant, sek } = await setup();
    const slot = `TENANT_DB_${String(tenant.slot).padStart(2, "0")}`;
    const trips: string[][] = [];
    const env = { ...bindings, [slot]: countingD1(tenantD1(tenant), trips) } as typeof bindings;
    const res = await worker.fetch(
      new Request(`http://api.test${base}/kk?q=wijaya&status=aktif`, {
        headers: { Authorization: `Bearer ${sek.token}` },
      }),
      env,
      createExecutionContext(),
    );
    expect(res.status).toBe(200);
    expect(trips).toHaveLength(1);
    const sql = trips[0]?.[0] ?? "";
    const params = Array.from(sql.matchAll(/\?/g), () => "x");
    const plan = await tenantD1(tenant)
      .prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .bind(...params)
      .all<{ detail: string }>();
    const steps = plan.results.map((r) => r.detail);
    // The page's ids: a walk of the covering search index in id order (not the status index, which would
    // read every active card and sort them), never of the table.
    expect(steps).toContainEqual(
      expect.stringMatching(/^(SCAN|SEARCH) family_cards USING COVERING INDEX family_cards_search_idx\b/),
    );
    expect(steps.filter((d) => /^SCAN family_cards$|family_cards_status_idx|TEMP B-TREE/.test(d))).toEqual(
      [],
    );
    // The page's own cards: read by id.
    expect(steps).toContainEqual(
      expect.stringMatching(/^SEARCH family_cards USING INDEX sqlite_autoindex_family_cards_1 \(id=\?\)/),
    );
  });
});

describe("life events, billing and corrections", () => {
  it("records lahir, meninggal, pindah_masuk and pindah_keluar, lists them by Jakarta day, and stops billing after a move", async () => {
    const { tenant, sek, unitId, card } = await setup();
    const born = await callJson<{ id: string; memberId: string }>(`${base}/mutasi`, {
      token: sek.token,
      body: {
        kind: "lahir",
        date: "2026-02-10",
        familyCardId: card.id,
        name: "Bayu Wijaya",
        nik: nik("100226"),
        sex: "L",
      },
    });
    expect(born.status, JSON.stringify(born.body)).toBe(201);
    expectProblem(
      await callJson(`${base}/mutasi`, {
        token: sek.token,
        body: {
          kind: "lahir",
          date: "2026-02-11",
          familyCardId: card.id,
          name: "Salah",
          nik: nik("100226"),
          sex: "L",
        },
      }),
      400,
      "invalid_nik",
    );
    const died = await callJson(`${base}/mutasi`, {
      token: sek.token,
      body: { kind: "meninggal", date: "2026-03-01", memberId: born.body.memberId, place: "RSUD" },
    });
    expect(died.status).toBe(201);
    expectRefusedMove(
      await callJson(`${base}/mutasi`, {
        token: sek.token,
        body: { kind: "meninggal", date: "2026-03-01", memberId: born.body.memberId },
      }),
      [],
    );
    const arrived = await callJson<{ familyCardId: string }>(`${base}/mutasi`, {
      token: sek.token,
      body: {
        kind: "pindah_masuk",
        date: "2026-03-05",
        kkNumber: nik(),
        unitId,
        headName: "Joko Purnomo",
        headNik: nik(),
        headSex: "L",
        place: "Kota Cimahi",
      },
    });
    expect(arrived.status).toBe(201);
    const left = await callJson(`${base}/mutasi`, {
      token: sek.token,
      body: { kind: "pindah_keluar", date: "2026-03-15", familyCardId: card.id, place: "Kab. Garut" },
    });
    expect(left.status).toBe(201);
    expectRefusedMove(
      await callJson(`${base}/mutasi`, {
        token: sek.token,
        body: { kind: "pindah_keluar", date: "2026-03-16", familyCardId: card.id },
      }),
      [],
    );
    expectProblem(
      await callJson(`${base}/mutasi`, {
        token: sek.token,
        body: { kind: "pindah_keluar", date: "2999-01-01", familyCardId: arrived.body.familyCardId },
      }),
      400,
      "invalid_date",
    );

    const detail = await callJson<Card>(`${base}/kk/${card.id}`, { token: sek.token });
    expect(detail.body).toMatchObject({ status: "pindah", statusDate: "2026-03-15" });
    expect(detail.body.members.find((m) => m.name === "Bayu Wijaya")?.livingStatus).toBe("meninggal");

    const march = await callJson<{ items: { kind: string; personName: string; date: string }[] }>(
      `${base}/mutasi?from=2026-03-01&to=2026-03-10`,
      { token: sek.token },
    );
    expect(march.body.items.map((m) => m.kind)).toEqual(["pindah_masuk", "meninggal"]);
    expect(JSON.stringify(march.body)).not.toMatch(/\d{16}/);
    const all = await callJson<{ items: unknown[] }>(`${base}/mutasi?kind=lahir`, { token: sek.token });
    expect(all.body.items).toHaveLength(1);
    expectProblem(
      await callJson(`${base}/mutasi?from=2026-03-10&to=2026-03-01`, { token: sek.token }),
      400,
      "invalid_range",
    );

    const ctx = await memberCtx(tenant.slug, sek, "sekretaris");
    const targets = async (period: string, basis: "unit" | "kk") =>
      (await billingTargetsQuery(ctx.db, { period, basis, includeEmpty: false, exempt: [] })).map((r) => r.t);
    expect((await targets("2026-03", "kk")).sort()).toEqual([card.id, arrived.body.familyCardId].sort());
    expect(await targets("2026-04", "kk")).toEqual([arrived.body.familyCardId]);
    expect(await targets("2026-04", "unit")).toEqual([unitId]);
    // Household views leave out a family that moved out.
    const warga = await tenant.member("warga", { unitId, whatsapp: "6281377700002" });
    const mine = await callJson<{ members: { name: string }[] }>(`${base}/household`, { token: warga.token });
    expect(mine.body.members.map((m) => m.name)).toEqual(["Joko Purnomo"]);
  });

  it("lets a resident propose corrections to their household; staff accept (applied) or reject with a reason", async () => {
    const { tenant, sek, unitId, card } = await setup();
    const warga = await tenant.member("warga", { unitId, whatsapp: "6281377700003" });
    const head = card.members[0];
    const propose = (body: unknown) =>
      callJson<{ id: string; value: string; status: string }>(`${base}/household/corrections`, {
        token: warga.token,
        body,
      });
    const job = await propose({
      memberId: head?.id,
      field: "occupation",
      value: "Wiraswasta",
      note: "Sudah pindah kerja",
    });
    expect(job.status).toBe(201);
    const newNik = nik();
    const nikFix = await propose({ memberId: head?.id, field: "nik", value: newNik });
    expect(nikFix.body.value).toBe(`${newNik.slice(0, 4)}********${newNik.slice(-4)}`);
    const other = await propose({ field: "lainnya", value: "Anak kedua belum terdaftar" });
    expect(other.status).toBe(201);
    expectProblem(
      await propose({ memberId: head?.id, field: "religion", value: "lainnya" }),
      400,
      "invalid_input",
    );
    expectProblem(await propose({ field: "name", value: "Tanpa anggota" }), 400, "invalid_input");
    // Someone of another household: not theirs.
    const elsewhere = await callJson<{ id: string }>(`${base}/units`, {
      token: sek.token,
      body: { block: "G", number: "9" },
    });
    const stranger = await newCard(sek, elsewhere.body.id, "Orang Lain");
    expectProblem(
      await propose({ memberId: stranger.members[0]?.id, field: "name", value: "Nama Baru" }),
      404,
      "household_member_not_found",
    );

    const staffList = await callJson<{ items: { id: string; value: string; memberName: string | null }[] }>(
      `${base}/corrections?status=diajukan`,
      { token: sek.token },
    );
    expect(staffList.body.items).toHaveLength(3);
    expect(staffList.body.items.find((c) => c.id === nikFix.body.id)?.value).toBe(newNik);
    expect(staffList.body.items.find((c) => c.id === job.body.id)?.memberName).toBe("Hendra Wijaya");

    const decide = (id: string, body: unknown) =>
      callJson<{ status: string; reason: string | null }>(`${base}/corrections/${id}`, {
        method: "PUT",
        token: sek.token,
        body,
      });
    expect((await decide(job.body.id, { status: "diterima" })).body.status).toBe("diterima");
    expectProblem(await decide(job.body.id, { status: "ditolak", reason: "x" }), 409, "invalid_transition");
    expectProblem(await decide(other.body.id, { status: "ditolak" }), 400, "invalid_input");
    expect(
      (await decide(other.body.id, { status: "ditolak", reason: "Bawa akta kelahiran ke sekretariat" })).body,
    ).toMatchObject({
      status: "ditolak",
      reason: "Bawa akta kelahiran ke sekretariat",
    });
    // Clearing the head's birth date (null) leaves the accepted NIK checked against sex alone.
    await callJson(`${base}/kk/${card.id}/members/${head?.id}`, {
      method: "PUT",
      token: sek.token,
      body: { birthDate: null },
    });
    expect((await decide(nikFix.body.id, { status: "diterima" })).status).toBe(200);
    const detail = await callJson<Card>(`${base}/kk/${card.id}`, { token: sek.token });
    expect(detail.body.members[0]).toMatchObject({ occupation: "Wiraswasta", nik: newNik });

    const mine = await callJson<{ items: { status: string }[] }>(`${base}/household/corrections`, {
      token: warga.token,
    });
    expect(mine.body.items.map((c) => c.status).sort()).toEqual(["diterima", "diterima", "ditolak"]);
    const admin = await tenant.member("admin");
    expect(JSON.stringify(await auditTrail(admin.token))).not.toContain(newNik);
  });
});

async function upload(token: string, file: Uint8Array | string, name: string, dryRun: boolean) {
  const form = new FormData();
  form.set("file", new File([file], name));
  return callJson<{
    ok: boolean;
    written: boolean;
    families: number;
    members: number;
    vehicles: number;
    errors: { sheet: string; row: number; field: string; message: string }[];
  }>(`${base}/import?dryRun=${dryRun}`, { token, body: form });
}

const HEADER = [
  "No. KK",
  "Blok",
  "No. Rumah",
  "NIK",
  "Nama",
  "Hubungan",
  "Jenis Kelamin",
  "Tempat Lahir",
  "Tanggal Lahir",
  "Agama",
  "Pendidikan",
  "Pekerjaan",
  "Status Perkawinan",
  "Kewarganegaraan",
  "Status Hidup",
  "Tanggal Meninggal",
  "Status Tinggal",
];

/** `families` KKs of four persons each (head, wife, two children) across blocks H1–H9. */
function registryRows(families: number) {
  const rows: (string | null)[][] = [];
  for (let f = 0; f < families; f++) {
    const kk = `3204020101${String(200000 + f).padStart(6, "0")}`;
    const block = `H${(f % 9) + 1}`;
    const house = String(f + 1);
    const serial = (i: number) => String(f * 4 + i + 1).padStart(4, "0");
    rows.push(
      [
        kk,
        block,
        house,
        `320402150380${serial(0)}`,
        `Kepala ${f}`,
        "kepala_keluarga",
        "L",
        "Bandung",
        "1980-03-15",
        "Islam",
        "sma",
        "Karyawan",
        "kawin",
        "WNI",
        "hidup",
        null,
        "tetap",
      ],
      [
        kk,
        block,
        house,
        `320402610882${serial(1)}`,
        `Istri ${f}`,
        "istri",
        "P",
        "Garut",
        "21-08-1982",
        "islam",
        "d3",
        null,
        "kawin",
        "WNI",
        "hidup",
        null,
        "tetap",
      ],
      [
        kk,
        block,
        house,
        `320402010110${serial(2)}`,
        `Anak ${f}`,
        "anak",
        "L",
        null,
        "2010-01-01",
        "islam",
        "smp",
        "Pelajar",
        "belum_kawin",
        "WNI",
        "hidup",
        null,
        "tetap",
      ],
      [
        kk,
        block,
        house,
        `320402420215${serial(3)}`,
        `Adik ${f}`,
        "anak",
        "Perempuan",
        null,
        "2015-02-02",
        "islam",
        null,
        null,
        "belum kawin",
        "WNI",
        "hidup",
        null,
        "kontrak",
      ],
    );
  }
  return rows;
}

describe("export and import", () => {
  it("exports a real .xlsx (KK, Anggota, Kendaraan, Unit) and a BOM CSV, and imports the export back into another tenant", async () => {
    const { sek, card } = await setup();
    await callJson(`${base}/kk/${card.id}/vehicles`, {
      token: sek.token,
      body: { plate: "D 77 RT", kind: "motor" },
    });
    const xlsx = await call(`${base}/export?format=xlsx`, { token: sek.token });
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get("Content-Type")).toContain("spreadsheetml");
    expect(xlsx.headers.get("Content-Disposition")).toMatch(/attachment; filename="kependudukan-.*\.xlsx"/);
    const bytes = new Uint8Array(await xlsx.arrayBuffer());
    const sheets = readWorkbook(bytes);
    expect(sheets.map((s) => s.name)).toEqual(["KK", "Anggota", "Kendaraan", "Unit"]);
    expect(sheets[1]?.rows[0]).toEqual(HEADER);
    expect(sheets[1]?.rows[1]?.slice(0, 5)).toEqual([
      card.kkNumber,
      "D",
      "12",
      card.members[0]?.nik,
      "Hendra Wijaya",
    ]);
    expect(sheets[2]?.rows[1]?.slice(0, 3)).toEqual([card.kkNumber, "D 77 RT", "motor"]);
    const csv = await call(`${base}/export?format=csv`, { token: sek.token });
    const csvText = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(
      await csv.arrayBuffer(),
    );
    expect(csvText.startsWith(`\uFEFF${HEADER.join(",")}\r\n`)).toBe(true);
    expect(csvText).toContain(card.members[0]?.nik ?? "?");

    // The same file into an empty tenant: dry run first writes nothing, then the real run writes it all.
    const target = await createTenant();
    const tsek = await target.member("sekretaris");
    const dry = await upload(tsek.token, bytes, "registry.xlsx", true);
    expect(dry.body).toMatchObject({
      ok: true,
      written: false,
      families: 1,
      members: 1,
      vehicles: 1,
      errors: [],
    });
    expect(
      (await callJson<{ items: unknown[] }>(`${base}/kk`, { token: tsek.token })).body.items,
    ).toHaveLength(0);
    const real = await upload(tsek.token, bytes, "registry.xlsx", false);
    expect(real.body).toMatchObject({ ok: true, written: true });
    const copied = await callJson<{ items: Card[] }>(`${base}/kk?q=hendra`, { token: tsek.token });
    const full = await callJson<Card>(`${base}/kk/${copied.body.items[0]?.id}`, { token: tsek.token });
    expect(full.body).toMatchObject({
      kkNumber: card.kkNumber,
      headName: "Hendra Wijaya",
      vehicles: [{ plate: "D 77 RT" }],
    });
    // Importing it again: every NIK, KK number and plate is taken now, and nothing more is written.
    const twice = await upload(tsek.token, bytes, "registry.xlsx", false);
    expect(twice.body.written).toBe(false);
    expect(twice.body.errors.map((e) => e.field).sort()).toEqual(["kkNumber", "nik", "plate"]);
  });

  it("exports the CSV with NIK and KK numbers as text (a tab in quotes) and dates as YYYY-MM-DD, and imports it back", async () => {
    const { sek, card } = await setup();
    const csv = await call(`${base}/export?format=csv`, { token: sek.token });
    expect(csv.status).toBe(200);
    const bytes = new Uint8Array(await csv.arrayBuffer());
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    const [, row] = text.split("\r\n");
    const cells = row?.split(",") ?? [];
    const head = card.members[0];
    expect(cells[0]).toBe(`"\t${card.kkNumber}"`);
    expect(cells[3]).toBe(`"\t${head?.nik}"`);
    expect(cells[8]).toBe("1985-03-15");
    expect(text).not.toMatch(/,\d{16},|E\+15/);

    // The marker is stripped on the way in: the file is valid as it stands, and writes the same numbers.
    const target = await createTenant();
    const tsek = await target.member("sekretaris");
    const real = await upload(tsek.token, bytes, "registry.csv", false);
    expect(real.body).toMatchObject({ ok: true, written: true, families: 1, members: 1, errors: [] });
    const copied = await callJson<{ items: Card[] }>(`${base}/kk?q=hendra`, { token: tsek.token });
    const full = await callJson<Card>(`${base}/kk/${copied.body.items[0]?.id}`, { token: tsek.token });
    expect(full.body.kkNumber).toBe(card.kkNumber);
    expect(full.body.members.map((m) => m.nik)).toEqual([head?.nik]);
  });

  it("imports 2,000 rows: one bad row writes nothing and is reported; the clean file writes everything", async () => {
    const { sek } = await setup();
    const rows = registryRows(500);
    const bad = rows.map((r) => [...r]);
    const badRow = bad[1234] as (string | null)[];
    badRow[3] = "3204023213820001"; // day 32
    bad[1500] = [...(bad[10] as (string | null)[])]; // duplicates row 12's NIK (and its KK's house)
    const csv = toCsv(HEADER, bad);
    const report = await upload(sek.token, csv, "warga.csv", false);
    expect(report.status).toBe(200);
    expect(report.body.written).toBe(false);
    expect(report.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ sheet: "Anggota", row: 1236, field: "nik" }),
        expect.objectContaining({
          sheet: "Anggota",
          row: 1502,
          field: "nik",
          message: "the same NIK as row 12",
        }),
      ]),
    );
    expect(
      (await callJson<{ items: unknown[] }>(`${base}/kk?q=Kepala`, { token: sek.token })).body.items,
    ).toHaveLength(0);

    const clean = writeWorkbook([{ name: "Anggota", header: HEADER, rows }]);
    const written = await upload(sek.token, clean, "warga.xlsx", false);
    expect(written.body).toMatchObject({ ok: true, written: true, families: 500, members: 2000 });
    const stats = await callJson<{ totalPersons: number; totalFamilies: number }>(`${base}/statistik`, {
      token: sek.token,
    });
    expect(stats.body).toMatchObject({ totalFamilies: 501, totalPersons: 2001 });
    const adik = await callJson<{ items: Card[] }>(`${base}/kk?q=Adik 499`, { token: sek.token });
    expect(adik.body.items).toHaveLength(1);
  });

  it("refuses a 0-byte file, a non-spreadsheet, a workbook without the Anggota sheet or its columns, and a file over 5 MB", async () => {
    const { tenant, sek } = await setup();
    expectProblem(await upload(sek.token, new Uint8Array(0), "x.xlsx", true), 400, "file_empty");
    const garbage = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5, 6, 7, 8]);
    expectProblem(await upload(sek.token, garbage, "x.xlsx", true), 400, "invalid_spreadsheet");
    const wrongSheet = writeWorkbook([{ name: "Sheet1", header: HEADER, rows: [] }]);
    expectProblem(await upload(sek.token, wrongSheet, "x.xlsx", true), 400, "spreadsheet_sheet_missing");
    const noColumns = toCsv(["Nama", "Alamat"], [["Budi", "Jl. Mawar"]]);
    expectProblem(await upload(sek.token, noColumns, "x.csv", true), 400, "invalid_spreadsheet");
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    expectProblem(await upload(sek.token, big, "x.csv", true), 413, "file_too_large");
    const form = new FormData();
    form.set("other", "x");
    expectProblem(await callJson(`${base}/import`, { token: sek.token, body: form }), 400, "file_missing");
    // Wrong role and flag off.
    const warga = await tenant.member("warga");
    expectProblem(await callJson(`${base}/export`, { token: warga.token }), 403, "forbidden_role");
    await setTenantFlags(tenant, { warga: false });
    expectProblem(await callJson(`${base}/statistik`, { token: sek.token }), 403, "feature_disabled");
  });
});
