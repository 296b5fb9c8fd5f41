import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AGE_BANDS } from "../../../src/modules/kependudukan/statistik";
import { jakartaTime, setNow } from "../../helpers/clock";
import { tenantD1 } from "../../helpers/d1";
import { callJson, createTenant, login } from "../../helpers/harness";

/**
 * Issue 32: the registry statistics read each card's kept counts (`living_members`, `vehicle_count`),
 * kept by the database's triggers on family_members and vehicles, and the registry's kept tally
 * (`registry_counts` by living status, sex, religion and residence; `registry_birth_months` of the
 * living), kept by triggers on family_members and family_cards (migration 0019), instead of reading
 * every person. Random sequences of writes in plain SQL (as an import, an archive restore or any write
 * path does them: members added, moved, dying, edited, removed; vehicles added, moved, removed; cards
 * moving out and back, removed and written again) must leave the kept counts and the tally equal to a
 * recount after every step, and the statistics, on one of several days around band edges, equal to
 * figures computed from every row with the age arithmetic the bands always used.
 */

const base = "/api/kependudukan";
const TODAY = "2026-11-20";
/** Birth dates around the band edges on TODAY, very old ones, future ones and none. */
const BIRTHS = [
  null,
  "2021-11-20",
  "2021-11-21",
  "2016-11-20",
  "2016-11-19",
  "1985-03-15",
  "1951-11-20",
  "1951-11-21",
  "1930-01-01",
  "2026-12-01",
  "2031-11-19",
  "2031-11-20",
  "2021-10-31",
  "2021-12-01",
  "1951-11-01",
  "1951-11-30",
  "2023-02-28",
  "2023-03-01",
  "1953-02-28",
  "1953-03-01",
] as const;
/** The days the statistics are asked on: TODAY, the day before, a month's turn, a year's turn, a leap day. */
const DAYS = [TODAY, "2026-11-19", "2026-11-30", "2026-12-01", "2027-01-01", "2028-02-29"] as const;
const SEXES = ["L", "P"] as const;
const BLOCKS = ["A", "B", "C"] as const;
const RELIGIONS = [null, "islam", "kristen", "hindu"] as const;
const RESIDENCES = [null, "tetap", "kontrak", "kos"] as const;

type Op =
  | {
      kind: "add";
      card: number;
      alive: boolean;
      male: boolean;
      birth: number;
      religion: number;
      residence: number;
    }
  | { kind: "living"; member: number; alive: boolean }
  | { kind: "move"; member: number; card: number }
  | { kind: "remove"; member: number }
  | { kind: "vehicle"; card: number }
  | { kind: "moveVehicle"; vehicle: number; card: number }
  | { kind: "removeVehicle"; vehicle: number }
  | { kind: "cardStatus"; card: number; status: number }
  | { kind: "edit"; member: number; field: "birth" | "sex" | "religion" | "residence"; value: number }
  | { kind: "recreateCard"; card: number; status: number }
  | { kind: "unitBlock"; unit: number; block: number }
  | { kind: "moveCard"; card: number; unit: number };

const CARD_STATUSES = ["aktif", "pindah", "meninggal"] as const;

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant("add" as const),
    card: fc.nat(20),
    alive: fc.boolean(),
    male: fc.boolean(),
    birth: fc.nat(BIRTHS.length - 1),
    religion: fc.nat(RELIGIONS.length - 1),
    residence: fc.nat(RESIDENCES.length - 1),
  }),
  fc.record({ kind: fc.constant("living" as const), member: fc.nat(40), alive: fc.boolean() }),
  fc.record({ kind: fc.constant("move" as const), member: fc.nat(40), card: fc.nat(20) }),
  fc.record({ kind: fc.constant("remove" as const), member: fc.nat(40) }),
  fc.record({ kind: fc.constant("vehicle" as const), card: fc.nat(20) }),
  fc.record({ kind: fc.constant("moveVehicle" as const), vehicle: fc.nat(20), card: fc.nat(20) }),
  fc.record({ kind: fc.constant("removeVehicle" as const), vehicle: fc.nat(20) }),
  fc.record({ kind: fc.constant("cardStatus" as const), card: fc.nat(20), status: fc.nat(2) }),
  fc.record({
    kind: fc.constant("edit" as const),
    member: fc.nat(40),
    field: fc.constantFrom("birth" as const, "sex" as const, "religion" as const, "residence" as const),
    value: fc.nat(BIRTHS.length - 1),
  }),
  fc.record({ kind: fc.constant("recreateCard" as const), card: fc.nat(20), status: fc.nat(2) }),
  fc.record({ kind: fc.constant("unitBlock" as const), unit: fc.nat(20), block: fc.nat(BLOCKS.length - 1) }),
  fc.record({ kind: fc.constant("moveCard" as const), card: fc.nat(20), unit: fc.nat(20) }),
);

/** The column and value an `edit` writes. */
function edited(step: Extract<Op, { kind: "edit" }>): [string, string | null] {
  switch (step.field) {
    case "birth":
      return ["birth_date", BIRTHS[step.value % BIRTHS.length] ?? null];
    case "sex":
      return ["sex", SEXES[step.value % SEXES.length] as string];
    case "religion":
      return ["religion", RELIGIONS[step.value % RELIGIONS.length] ?? null];
    default:
      return ["residence_status", RESIDENCES[step.value % RESIDENCES.length] ?? null];
  }
}

interface Row {
  id: string;
  family_card_id: string;
  living_status: string;
  sex: string;
  religion: string | null;
  residence_status: string | null;
  birth_date: string | null;
}

let serial = 0;

async function apply(db: D1Database, cards: string[], units: string[], step: Op) {
  const nth = async (table: string, i: number) => {
    const { results } = await db.prepare(`SELECT id FROM ${table} ORDER BY id`).all<{ id: string }>();
    return results[i % Math.max(results.length, 1)]?.id;
  };
  const card = (i: number) => cards[i % cards.length] as string;
  const now = new Date().toISOString();
  serial += 1;
  if (step.kind === "add") {
    await db
      .prepare(
        `INSERT INTO family_members (id, family_card_id, name, nik, relationship, sex, birth_date, religion, living_status, residence_status, updated_at)
         VALUES (?, ?, 'Warga Uji', ?, 'anak', ?, ?, ?, ?, ?, ?)`,
      )
      .bind(
        `m-${String(serial).padStart(5, "0")}`,
        card(step.card),
        `3204020101${String(900000 + serial)}`,
        step.male ? "L" : "P",
        BIRTHS[step.birth] ?? null,
        RELIGIONS[step.religion] ?? null,
        step.alive ? "hidup" : "meninggal",
        RESIDENCES[step.residence] ?? null,
        now,
      )
      .run();
  } else if (step.kind === "unitBlock") {
    await db
      .prepare("UPDATE units SET block = ? WHERE id = ?")
      .bind(BLOCKS[step.block], units[step.unit % units.length])
      .run();
  } else if (step.kind === "moveCard") {
    await db
      .prepare("UPDATE family_cards SET unit_id = ? WHERE id = ?")
      .bind(units[step.unit % units.length], card(step.card))
      .run();
  } else if (step.kind === "edit") {
    const id = await nth("family_members", step.member);
    const [column, value] = edited(step);
    if (id) {
      await db.prepare(`UPDATE family_members SET ${column} = ? WHERE id = ?`).bind(value, id).run();
    }
  } else if (step.kind === "recreateCard") {
    // The card's row removed and written again with a status (its members stay), as a restore would.
    const row = await db
      .prepare("SELECT * FROM family_cards WHERE id = ?")
      .bind(card(step.card))
      .first<Record<string, unknown>>();
    if (row) {
      const columns = Object.keys(row).filter((c) => c !== "status");
      await db.batch([
        db.prepare("DELETE FROM family_cards WHERE id = ?").bind(row.id),
        db
          .prepare(
            `INSERT INTO family_cards (${columns.join(", ")}, status) VALUES (${columns.map(() => "?").join(", ")}, ?)`,
          )
          .bind(...columns.map((c) => row[c]), CARD_STATUSES[step.status]),
      ]);
    }
  } else if (step.kind === "living" || step.kind === "move" || step.kind === "remove") {
    const id = await nth("family_members", step.member);
    if (!id) {
      return;
    }
    const statement =
      step.kind === "living"
        ? db
            .prepare("UPDATE family_members SET living_status = ? WHERE id = ?")
            .bind(step.alive ? "hidup" : "meninggal", id)
        : step.kind === "move"
          ? db.prepare("UPDATE family_members SET family_card_id = ? WHERE id = ?").bind(card(step.card), id)
          : db.prepare("DELETE FROM family_members WHERE id = ?").bind(id);
    await statement.run();
  } else if (step.kind === "vehicle") {
    await db
      .prepare(
        "INSERT INTO vehicles (id, family_card_id, plate, kind, updated_at) VALUES (?, ?, ?, 'motor', ?)",
      )
      .bind(`v-${String(serial).padStart(5, "0")}`, card(step.card), `D ${serial} UJI`, now)
      .run();
  } else if (step.kind === "moveVehicle" || step.kind === "removeVehicle") {
    const id = await nth("vehicles", step.vehicle);
    if (id) {
      await (step.kind === "moveVehicle"
        ? db.prepare("UPDATE vehicles SET family_card_id = ? WHERE id = ?").bind(card(step.card), id)
        : db.prepare("DELETE FROM vehicles WHERE id = ?").bind(id)
      ).run();
    }
  } else {
    await db
      .prepare("UPDATE family_cards SET status = ? WHERE id = ?")
      .bind(CARD_STATUSES[step.status], card(step.card))
      .run();
  }
}

/** The kept counts against a recount from the rows. */
async function keptAndRecounted(db: D1Database) {
  const { results } = await db
    .prepare(
      `SELECT id, living_members AS kept_living, vehicle_count AS kept_vehicles,
         (SELECT count(*) FROM family_members m WHERE m.family_card_id = c.id AND m.living_status = 'hidup') AS living,
         (SELECT count(*) FROM vehicles v WHERE v.family_card_id = c.id) AS vehicles
       FROM family_cards c ORDER BY id`,
    )
    .all<{ id: string; kept_living: number; kept_vehicles: number; living: number; vehicles: number }>();
  return {
    kept: results.map((r) => [r.id, r.kept_living, r.kept_vehicles]),
    recounted: results.map((r) => [r.id, r.living, r.vehicles]),
  };
}

/** The kept tallies against a recount of the active cards' rows (no row at zero either). */
async function tallyAndRecounted(db: D1Database) {
  const [counts, recounts, months, remonths, blocks, reblocks] = await db.batch([
    db.prepare(
      "SELECT living_status, sex, religion, residence_status, persons FROM registry_counts ORDER BY 1, 2, 3, 4",
    ),
    db.prepare(
      `SELECT m.living_status, m.sex, coalesce(m.religion, '') AS religion,
         coalesce(m.residence_status, '') AS residence_status, count(*) AS persons
       FROM family_members m JOIN family_cards c ON c.id = m.family_card_id
       WHERE c.status = 'aktif' GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
    ),
    db.prepare("SELECT birth_month, persons FROM registry_birth_months ORDER BY 1"),
    db.prepare(
      `SELECT substr(m.birth_date, 1, 7) AS birth_month, count(*) AS persons
       FROM family_members m JOIN family_cards c ON c.id = m.family_card_id
       WHERE c.status = 'aktif' AND m.living_status = 'hidup' AND m.birth_date IS NOT NULL
       GROUP BY 1 ORDER BY 1`,
    ),
    db.prepare("SELECT block, families, persons, vehicles FROM units_block_counts ORDER BY 1"),
    db.prepare(
      `SELECT u.block, count(*) AS families,
         sum((SELECT count(*) FROM family_members m WHERE m.family_card_id = c.id AND m.living_status = 'hidup')) AS persons,
         sum((SELECT count(*) FROM vehicles v WHERE v.family_card_id = c.id)) AS vehicles
       FROM family_cards c JOIN units u ON u.id = c.unit_id WHERE c.status = 'aktif' GROUP BY 1 ORDER BY 1`,
    ),
  ]);
  return {
    kept: [counts?.results, months?.results, blocks?.results],
    recounted: [recounts?.results, remonths?.results, reblocks?.results],
  };
}

/** The months (YYYY-MM) that hold a band edge on `day`: its month 5i years back, and 5 years ahead. */
function edgeMonths(day: string): string[] {
  const year = Number(day.slice(0, 4));
  return [-5, ...Array.from({ length: 15 }, (_, i) => 5 * (i + 1))].map(
    (back) => `${year - back}${day.slice(4, 7)}`,
  );
}

/** The age band by the YYYYMMDD arithmetic the statistics always used (SQLite's integer division). */
function band(birth: string | null, today = TODAY): string {
  if (birth === null) {
    return "tidak_diketahui";
  }
  const diff = Number(today.replaceAll("-", "")) - Number(birth.replaceAll("-", ""));
  const i = Math.max(-1, Math.min(15, Math.trunc(diff / 50000)));
  return i < 0 ? "tidak_diketahui" : (AGE_BANDS[i] as string);
}

/** The statistics computed from every row, on `today`. */
async function expected(db: D1Database, today = TODAY) {
  const cards = (
    await db
      .prepare("SELECT c.id, c.status, u.block FROM family_cards c JOIN units u ON u.id = c.unit_id")
      .all<{ id: string; status: string; block: string }>()
  ).results.filter((c) => c.status === "aktif");
  const active = new Map(cards.map((c) => [c.id, c.block]));
  const members = (await db.prepare("SELECT * FROM family_members").all<Row>()).results.filter((m) =>
    active.has(m.family_card_id),
  );
  const living = members.filter((m) => m.living_status === "hidup");
  const vehicles = (
    await db.prepare("SELECT family_card_id FROM vehicles").all<{ family_card_id: string }>()
  ).results.filter((v) => active.has(v.family_card_id));
  const countBy = <T>(rows: T[], key: (row: T) => string) => {
    const map = new Map<string, number>();
    for (const row of rows) {
      map.set(key(row), (map.get(key(row)) ?? 0) + 1);
    }
    return map;
  };
  const blocks = [...new Set(active.values())].sort();
  return {
    totalFamilies: cards.length,
    totalPersons: living.length,
    totalVehicles: vehicles.length,
    perBlock: blocks.map((block) => ({
      block,
      families: cards.filter((c) => c.block === block).length,
      persons: living.filter((m) => active.get(m.family_card_id) === block).length,
      vehicles: vehicles.filter((v) => active.get(v.family_card_id) === block).length,
    })),
    sex: countBy(living, (m) => m.sex),
    religion: countBy(living, (m) => m.religion ?? "tidak_diketahui"),
    residence: countBy(living, (m) => m.residence_status ?? "tidak_diketahui"),
    age: countBy(living, (m) => band(m.birth_date, today)),
    dead: members.length - living.length,
  };
}

type Tally = { key: string; count: number }[];
const asMap = (rows: Tally) => new Map(rows.filter((r) => r.count !== 0).map((r) => [r.key, r.count]));

describe("registry statistics on kept counts", () => {
  it("keep each card's living members and vehicles through any writes, and count like a full recount (property)", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const db = tenantD1(tenant);
    const cards: string[] = [];
    const units: string[] = [];
    for (const [block, number] of [
      ["A", "1"],
      ["A", "2"],
      ["B", "3"],
    ] as const) {
      const unit = await callJson<{ id: string }>(`${base}/units`, {
        token: sek.token,
        body: { block, number },
      });
      expect(unit.status).toBe(201);
      units.push(unit.body.id);
      const card = await callJson<{ id: string }>(`${base}/kk`, {
        token: sek.token,
        body: {
          kkNumber: `320402150385${String(cards.length + 7000).padStart(4, "0")}`,
          unitId: unit.body.id,
          headName: `Kepala ${block}${number}`,
          headNik: `320402150385${String(cards.length + 8000).padStart(4, "0")}`,
          headSex: "L",
          headBirthDate: "1985-03-15",
          headReligion: "islam",
          headResidenceStatus: "tetap",
        },
      });
      expect(card.status, JSON.stringify(card.body)).toBe(201);
      cards.push(card.body.id);
    }
    const admin = await tenant.member("admin");
    /** Sign-ins minted on each day's clock: a token and session of the real day have expired in 2028. */
    const tokens = new Map<string, Promise<{ sek: string; admin: string }>>();
    const tokensOn = (day: string) => {
      const minted =
        tokens.get(day) ??
        Promise.all([login(sek.email, tenant.slug), login(admin.email, tenant.slug)]).then(([s, a]) => ({
          sek: s,
          admin: a,
        }));
      tokens.set(day, minted);
      return minted;
    };
    let checked = 0;
    /** What the sequences exercised: each step kind that moved the tally, and what the statistics met. */
    const exercised = new Set<string>();

    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...DAYS),
        fc.array(op, { minLength: 1, maxLength: 12 }),
        async (day, ops) => {
          for (const step of ops) {
            const before = (await tallyAndRecounted(db)).kept;
            await apply(db, cards, units, step);
            const { kept, recounted } = await keptAndRecounted(db);
            expect(kept).toEqual(recounted);
            const tally = await tallyAndRecounted(db);
            expect(tally.kept).toEqual(tally.recounted);
            if (JSON.stringify(tally.kept) !== JSON.stringify(before)) {
              exercised.add(
                step.kind === "edit"
                  ? `edit:${step.field}`
                  : step.kind === "cardStatus"
                    ? `cardStatus:${step.status === 0 ? "in" : "out"}`
                    : step.kind,
              );
            }
            checked += 1;
          }
          setNow(jakartaTime(day));
          const signedIn = await tokensOn(day);
          const stats = await callJson<Record<string, unknown>>(`${base}/statistik`, { token: signedIn.sek });
          expect(stats.status).toBe(200);
          const want = await expected(db, day);
          const edges = edgeMonths(day);
          const { results: seen } = await db
            .prepare(
              `SELECT c.status = 'aktif' AS active, m.birth_date FROM family_members m
             JOIN family_cards c ON c.id = m.family_card_id WHERE m.living_status = 'hidup'`,
            )
            .all<{ active: number; birth_date: string | null }>();
          for (const m of seen) {
            if (!m.active) {
              exercised.add("living on an inactive card");
            } else if (m.birth_date !== null) {
              exercised.add(
                edges.includes(m.birth_date.slice(0, 7)) ? "born in an edge month" : "born in a whole month",
              );
            }
          }
          expect(stats.body).toMatchObject({
            totalFamilies: want.totalFamilies,
            totalPersons: want.totalPersons,
            totalVehicles: want.totalVehicles,
            perBlock: want.perBlock,
          });
          expect(asMap(stats.body.sex as Tally)).toEqual(want.sex);
          expect(asMap(stats.body.religion as Tally)).toEqual(want.religion);
          expect(asMap(stats.body.residenceStatus as Tally)).toEqual(want.residence);
          expect(asMap(stats.body.ageGroups as Tally)).toEqual(want.age);
          expect(stats.body.livingStatus).toEqual([
            { key: "hidup", count: want.totalPersons },
            { key: "meninggal", count: want.dead },
          ]);
          const dash = await callJson<{ indicators: { key: string; value: number }[] }>(
            "/api/statistik/operasional",
            { token: signedIn.admin },
          );
          expect(dash.body.indicators.find((i) => i.key === "totalResidents")?.value).toBe(want.totalPersons);
        },
      ),
      {
        numRuns: 12,
        examples: [
          // A card with its living head moves out and gains a member: living persons on a card no longer
          // active are left out.
          [
            TODAY,
            [
              { kind: "cardStatus", card: 0, status: 1 },
              { kind: "add", card: 0, alive: true, male: false, birth: 0, religion: 0, residence: 0 },
            ],
          ],
          // Every step kind moving the tally, on the three active cards of the start (each with its head,
          // born 1985-03-15: a whole month) and the members added here, sorted after the heads (`m-…`):
          // a member added with nothing known, edited field by field, dying and living again, moved to a
          // card that moved out; a card out and back; a card removed and written again, out then in; a
          // member removed; one born in the month of a band edge (2021-11 on TODAY) stays; a unit with an
          // active card changes block, and an active card moves to a unit of another block.
          [
            TODAY,
            [
              { kind: "cardStatus", card: 0, status: 0 },
              { kind: "add", card: 1, alive: true, male: false, birth: 0, religion: 0, residence: 0 },
              { kind: "edit", member: 4, field: "sex", value: 0 },
              { kind: "edit", member: 4, field: "religion", value: 1 },
              { kind: "edit", member: 4, field: "residence", value: 2 },
              { kind: "edit", member: 4, field: "birth", value: 2 },
              { kind: "living", member: 4, alive: false },
              { kind: "living", member: 4, alive: true },
              { kind: "cardStatus", card: 2, status: 1 },
              { kind: "move", member: 4, card: 2 },
              { kind: "cardStatus", card: 2, status: 0 },
              { kind: "recreateCard", card: 2, status: 2 },
              { kind: "recreateCard", card: 2, status: 0 },
              { kind: "add", card: 1, alive: true, male: true, birth: 2, religion: 2, residence: 1 },
              { kind: "add", card: 1, alive: true, male: true, birth: 5, religion: 1, residence: 1 },
              { kind: "remove", member: 6 },
              { kind: "unitBlock", unit: 0, block: 2 },
              { kind: "moveCard", card: 1, unit: 2 },
            ],
          ],
          // A leap day: the edges are 29 February 5i years back, a day no such year has.
          [
            "2028-02-29",
            [
              { kind: "add", card: 1, alive: true, male: false, birth: 16, religion: 3, residence: 3 },
              { kind: "add", card: 1, alive: true, male: true, birth: 18, religion: 1, residence: 1 },
            ],
          ],
        ],
      },
    );
    expect(checked).toBeGreaterThan(12);
    // The examples above reach every one of these whatever the random runs draw.
    expect([...exercised]).toEqual(
      expect.arrayContaining([
        "add",
        "born in a whole month",
        "born in an edge month",
        "cardStatus:in",
        "cardStatus:out",
        "edit:birth",
        "edit:religion",
        "edit:residence",
        "edit:sex",
        "living",
        "living on an inactive card",
        "move",
        "moveCard",
        "recreateCard",
        "remove",
        "unitBlock",
      ]),
    );
  }, 300_000);

  it("move a person into the next band on the Jakarta day of their birthday, at midnight WIB", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const db = tenantD1(tenant);
    const unit = await callJson<{ id: string }>(`${base}/units`, {
      token: sek.token,
      body: { block: "C", number: "1" },
    });
    const card = await callJson<{ id: string }>(`${base}/kk`, {
      token: sek.token,
      body: {
        kkNumber: "3204021503859001",
        unitId: unit.body.id,
        headName: "Kepala C1",
        headNik: "3204022011510001",
        headSex: "L",
        headBirthDate: "1951-11-20",
        headReligion: "islam",
        headResidenceStatus: "tetap",
      },
    });
    expect(card.status, JSON.stringify(card.body)).toBe(201);
    // Five years old on 2026-11-20, not yet on the 19th; one born the day after, and one five years ahead.
    for (const [i, born] of ["2021-11-20", "2021-11-21", "2031-11-20"].entries()) {
      await db
        .prepare(
          `INSERT INTO family_members (id, family_card_id, name, nik, relationship, sex, birth_date, updated_at)
           VALUES (?, ?, 'Anak Uji', ?, 'anak', 'P', ?, '2026-01-01')`,
        )
        .bind(`edge-${i}`, card.body.id, `320402010190000${i}`, born)
        .run();
    }
    let token: string | undefined;
    const ages = async (at: Date) => {
      setNow(at);
      // Signed in on the test's clock, once: its two instants are a minute apart.
      token ??= await login(sek.email, tenant.slug);
      const stats = await callJson<{ ageGroups: Tally }>(`${base}/statistik`, { token });
      expect(stats.status).toBe(200);
      return asMap(stats.body.ageGroups);
    };
    // 23:59 WIB on the 19th is still the 19th in Jakarta (16:59 UTC); 00:00 WIB on the 20th is the 20th.
    const eve = await ages(new Date(jakartaTime("2026-11-19", 23).getTime() + 59 * 60_000));
    const day = await ages(jakartaTime("2026-11-20", 0));
    expect(eve).toEqual(
      new Map([
        ["0-4", 2],
        ["70-74", 1],
        ["tidak_diketahui", 1],
      ]),
    );
    expect(day).toEqual(
      new Map([
        ["0-4", 1],
        ["5-9", 1],
        ["75+", 1],
        ["tidak_diketahui", 1],
      ]),
    );
    for (const [label, at, today] of [
      ["eve", eve, "2026-11-19"],
      ["day", day, "2026-11-20"],
    ] as const) {
      const want = (await expected(db, today)).age;
      expect(at, label).toEqual(want);
    }
  });
});
