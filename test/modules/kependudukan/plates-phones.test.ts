import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TENANT_MIGRATIONS } from "../../../src/core/db/tenant-migrations.generated";
import { readWorkbook, writeWorkbook } from "../../../src/platform/spreadsheets";
import { tenantD1, withTrigger } from "../../helpers/d1";
import { call, callJson, createTenant, expectProblem, type Member } from "../../helpers/harness";
import { phoneSpellings, storedMobile, typedSpelling } from "../../helpers/phone";

/** Issue 49 item 2 in the registry: plates and WhatsApp numbers as people type them (ADR 0047). */

interface Vehicle {
  id: string;
  familyCardId: string;
  plate: string;
  plateDuplicate: boolean;
}
interface Card {
  id: string;
  kkNumber: string;
  headWhatsapp: string | null;
  vehicles: Vehicle[];
}
interface Reported extends Vehicle {
  typed: string;
  headName: string | null;
  samePlate: (Vehicle & { typed: string; headName: string | null })[];
}

let n = 0;
const nik = (ddmmyy = "150385") => `320402${ddmmyy}${String(++n).padStart(4, "0")}`;
const base = "/api/kependudukan";

async function setup() {
  const tenant = await createTenant();
  const sek = await tenant.member("sekretaris");
  const unit = await callJson<{ id: string }>(`${base}/units`, {
    token: sek.token,
    body: { block: "P", number: "1" },
  });
  const a = await newCard(sek, unit.body.id, "Agus Salim");
  const b = await newCard(sek, unit.body.id, "Budi Santoso");
  return { tenant, sek, unitId: unit.body.id, a, b };
}

async function newCard(sek: Member, unitId: string, headName: string, extra: Record<string, unknown> = {}) {
  const res = await callJson<Card>(`${base}/kk`, {
    token: sek.token,
    body: {
      kkNumber: nik(),
      unitId,
      headName,
      headNik: nik(),
      headSex: "L",
      headBirthDate: "1985-03-15",
      ...extra,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const addVehicle = (sek: Member, cardId: string, plate: string) =>
  callJson<Vehicle>(`${base}/kk/${cardId}/vehicles`, { token: sek.token, body: { plate, kind: "mobil" } });

const duplicates = async (sek: Member, query = "") => {
  const res = await callJson<{ items: Reported[]; nextCursor: string | null }>(
    `${base}/vehicles/duplicates${query}`,
    { token: sek.token },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

/** The statements of migration 0034 that fill keys, flag duplicates and index them (not the ALTERs). */
function migration0034(): string[] {
  const found = TENANT_MIGRATIONS.find((m) => m.name === "0034_plate_keys.sql");
  expect(found).toBeDefined();
  return (found?.statements ?? []).filter(
    (s) =>
      /^(--[^\n]*\n)?\s*(UPDATE `vehicles`|CREATE UNIQUE INDEX|CREATE TRIGGER)/.test(s) ||
      s.includes("UPDATE `vehicles`"),
  );
}

describe("vehicle plates compared as plates", () => {
  it("stores the spaced form, refuses another spelling of a registered plate, and finds it however typed", async () => {
    const { sek, a, b } = await setup();
    const car = await addVehicle(sek, a.id, "b-1234-xyz");
    expect(car.status).toBe(201);
    expect(car.body).toMatchObject({ plate: "B 1234 XYZ", plateDuplicate: false });
    for (const spelling of ["B 1234 XYZ", "b1234xyz", "B-1234-XYZ", " b 1234-XYZ "]) {
      expectProblem(await addVehicle(sek, b.id, spelling), 409, "plate_taken");
    }
    // Another vehicle may not be renamed to it either; a different plate is fine.
    const bike = await addVehicle(sek, b.id, "B 1234 XY");
    expect(bike.status).toBe(201);
    expectProblem(
      await callJson(`${base}/kk/${b.id}/vehicles/${bike.body.id}`, {
        method: "PUT",
        token: sek.token,
        body: { plate: "B1234-XYZ" },
      }),
      409,
      "plate_taken",
    );
    // Not a plate: refused, nothing written.
    for (const bad of ["B_1234", "B 1234 XYZ!", "-", "1234567890ABCDEF"]) {
      expectProblem(await addVehicle(sek, b.id, bad), 400, "invalid_input");
    }
    const search = async (q: string) =>
      (
        await callJson<{ items: { id: string }[] }>(`${base}/kk?q=${encodeURIComponent(q)}`, {
          token: sek.token,
        })
      ).body.items.map((c) => c.id);
    for (const q of ["B1234XYZ", "b-1234-xyz", "1234xy", "b 1234 x"]) {
      expect(await search(q), q).toContain(a.id);
    }
    expect(await search("B1234XY")).toEqual([a.id, b.id].sort());
    expect(await search("9999ZZ")).toEqual([]);
  });

  it("migration 0034 flags plates registered under two spellings, lists them, and resolving one clears them", async () => {
    const { tenant, sek, a, b } = await setup();
    const db = tenantD1(tenant);
    // The registry as it was before the migration: two spellings of one plate, stored as two vehicles.
    await db.batch([
      db.prepare("DROP INDEX vehicles_plate_key_uq"),
      db.prepare("DROP TRIGGER vehicles_plate_key_fill"),
      ...[
        ["v-old-1", a.id, "B 1234 XYZ"],
        ["v-old-2", b.id, "B1234XYZ"],
        ["v-old-3", b.id, "D 77 RT"],
      ].map(([id, card, plate]) =>
        db
          .prepare(
            "INSERT INTO vehicles (id, family_card_id, plate, kind, updated_at) VALUES (?, ?, ?, 'mobil', '2026-01-01T00:00:00.000Z')",
          )
          .bind(id, card, plate),
      ),
    ]);
    for (const statement of migration0034()) {
      await db.prepare(statement).run();
    }
    const keys = await db
      .prepare("SELECT id, plate, plate_key, plate_duplicate FROM vehicles ORDER BY id")
      .all();
    expect(keys.results).toEqual([
      { id: "v-old-1", plate: "B 1234 XYZ", plate_key: "B1234XYZ", plate_duplicate: 0 },
      { id: "v-old-2", plate: "B1234XYZ", plate_key: "B1234XYZ", plate_duplicate: 1 },
      { id: "v-old-3", plate: "D 77 RT", plate_key: "D77RT", plate_duplicate: 0 },
    ]);
    // Neither is dropped or merged: the report names the later one with the one that had it first.
    const report = await duplicates(sek);
    expect(report.items).toHaveLength(1);
    expect(report.items[0]).toMatchObject({
      id: "v-old-2",
      plate: "B 1234 XYZ",
      typed: "B1234XYZ",
      plateDuplicate: true,
      headName: "Budi Santoso",
      samePlate: [{ id: "v-old-1", familyCardId: a.id, headName: "Agus Salim", plateDuplicate: false }],
    });
    const detail = await callJson<Card>(`${base}/kk/${b.id}`, { token: sek.token });
    expect(detail.body.vehicles.find((v) => v.id === "v-old-2")).toMatchObject({
      plate: "B 1234 XYZ",
      plateDuplicate: true,
    });
    // The rule holds for new writes, and correcting the flagged plate to another taken spelling is refused.
    expectProblem(await addVehicle(sek, a.id, "b-1234-xyz"), 409, "plate_taken");
    expectProblem(
      await callJson(`${base}/kk/${b.id}/vehicles/v-old-2`, {
        method: "PUT",
        token: sek.token,
        body: { plate: "b 1234 xyz" },
      }),
      409,
      "plate_taken",
    );
    expect((await duplicates(sek)).items).toHaveLength(1);
    // The secretary corrects it: off the list, and the corrected plate is unique like any other.
    const fixed = await callJson<Vehicle>(`${base}/kk/${b.id}/vehicles/v-old-2`, {
      method: "PUT",
      token: sek.token,
      body: { plate: "b 1234 xyy" },
    });
    expect(fixed.body).toMatchObject({ plate: "B 1234 XYY", plateDuplicate: false });
    expect((await duplicates(sek)).items).toEqual([]);
    expectProblem(await addVehicle(sek, a.id, "B1234XYY"), 409, "plate_taken");

    // A row written without a key (the seed, an old archive) is flagged by the trigger instead of failing.
    await db
      .prepare(
        "INSERT INTO vehicles (id, family_card_id, plate, kind, updated_at) VALUES ('v-old-4', ?, 'd-77-rt', 'motor', '2026-01-01T00:00:00.000Z')",
      )
      .bind(a.id)
      .run();
    const late = await duplicates(sek);
    expect(late.items.map((i) => [i.id, i.plate, i.samePlate.map((s) => s.id)])).toEqual([
      ["v-old-4", "D 77 RT", ["v-old-3"]],
    ]);
    // Deleting the vehicle that had the plate first: the flagged one now holds it, and is no duplicate.
    const gone = await call(`${base}/kk/${b.id}/vehicles/v-old-3`, { method: "DELETE", token: sek.token });
    expect(gone.status).toBe(204);
    expect((await duplicates(sek)).items).toEqual([]);
    const holder = await callJson<Card>(`${base}/kk/${a.id}`, { token: sek.token });
    expect(holder.body.vehicles.find((v) => v.id === "v-old-4")).toMatchObject({ plateDuplicate: false });
    expectProblem(await addVehicle(sek, b.id, "D77RT"), 409, "plate_taken");
  });

  it("a vehicle's delete or plate change failing at its audit record leaves the plate, and its duplicate, as they were", async () => {
    const { tenant, sek, a, b } = await setup();
    const db = tenantD1(tenant);
    const kept = await addVehicle(sek, a.id, "F 1 AB");
    // The same plate under another spelling, written without a key: flagged by the trigger.
    await db
      .prepare(
        "INSERT INTO vehicles (id, family_card_id, plate, kind, updated_at) VALUES ('v-bf-dup', ?, 'F1AB', 'motor', '2026-01-01T00:00:00.000Z')",
      )
      .bind(b.id)
      .run();
    const state = async () =>
      (
        await db
          .prepare("SELECT id, plate_duplicate AS d FROM vehicles WHERE plate_key = 'F1AB' ORDER BY id")
          .all()
      ).results;
    const before = await state();
    expect(before).toHaveLength(2);
    const slug = tenant.slug.replaceAll("-", "_");
    for (const [action, request] of [
      [
        "kk.vehicle.delete",
        () => call(`${base}/kk/${a.id}/vehicles/${kept.body.id}`, { method: "DELETE", token: sek.token }),
      ],
      [
        "kk.vehicle.update",
        () =>
          call(`${base}/kk/${a.id}/vehicles/${kept.body.id}`, {
            method: "PUT",
            token: sek.token,
            body: { plate: "F 2 AB" },
          }),
      ],
    ] as const) {
      const res = await withTrigger(
        db,
        `fail_plate_${slug}`,
        `BEFORE INSERT ON audit_log WHEN NEW.action = '${action}' BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
        request,
      );
      expect(res.status, action).toBe(500);
      expect(await state(), action).toEqual(before);
      expect((await duplicates(sek)).items.map((i) => i.id)).toEqual(["v-bf-dup"]);
    }
  });

  it("pages the report by cursor, refuses bad paging, and shows another community's secretary nothing", async () => {
    const { tenant, sek, a, b } = await setup();
    const db = tenantD1(tenant);
    const rows = ["K 1 A", "K 2 A", "K 3 A"].flatMap((plate, i) => [
      db
        .prepare(
          "INSERT INTO vehicles (id, family_card_id, plate, kind, updated_at) VALUES (?, ?, ?, 'motor', '2026-01-01T00:00:00.000Z')",
        )
        .bind(`v-p${i}-a`, a.id, plate),
      db
        .prepare(
          "INSERT INTO vehicles (id, family_card_id, plate, kind, updated_at) VALUES (?, ?, ?, 'motor', '2026-01-01T00:00:00.000Z')",
        )
        .bind(`v-p${i}-b`, b.id, plate.replaceAll(" ", "-")),
    ]);
    await db.batch(rows);
    const first = await duplicates(sek, "?limit=2");
    expect(first.items.map((i) => i.id)).toEqual(["v-p0-b", "v-p1-b"]);
    const second = await duplicates(sek, `?limit=2&cursor=${encodeURIComponent(first.nextCursor ?? "")}`);
    expect(second.items.map((i) => i.id)).toEqual(["v-p2-b"]);
    expect(second.nextCursor).toBeNull();
    // Each reported vehicle with the others holding its plate: those of its own page's plates only.
    expect([...first.items, ...second.items].map((i) => i.samePlate.map((s) => s.id))).toEqual([
      ["v-p0-a"],
      ["v-p1-a"],
      ["v-p2-a"],
    ]);
    expectProblem(
      await callJson(`${base}/vehicles/duplicates?limit=0`, { token: sek.token }),
      400,
      "invalid_input",
    );
    expectProblem(
      await callJson(`${base}/vehicles/duplicates?cursor=v-p0-b`, { token: sek.token }),
      400,
      "invalid_cursor",
    );
    const other = await createTenant();
    const otherSek = await other.member("sekretaris");
    expect((await duplicates(otherSek)).items).toEqual([]);
  });

  it("imports plates by key: another spelling of a registered or earlier row's plate is reported", async () => {
    const { sek, a } = await setup();
    await addVehicle(sek, a.id, "D 77 RT");
    const exported = readWorkbook(
      new Uint8Array(await (await call(`${base}/export?format=xlsx`, { token: sek.token })).arrayBuffer()),
    );
    const sheets = exported.map((sheet) => ({
      name: sheet.name,
      header: (sheet.rows[0] ?? []).map((h) => String(h)),
      rows: sheet.rows.slice(1).map((r) => [...r]),
    }));
    const kk = sheets.find((sheet) => sheet.name === "KK");
    const cars = sheets.find((sheet) => sheet.name === "Kendaraan");
    const whatsappAt = kk?.header.indexOf("WhatsApp") ?? -1;
    for (const row of kk?.rows ?? []) {
      row[whatsappAt] = "0812-3456 7890";
    }
    const car = cars?.rows[0] ?? [];
    car[1] = "d-77-rt";
    cars?.rows.push([...car.slice(0, 1), "D77RT", ...car.slice(2)]);
    const target = await createTenant();
    const tsek = await target.member("sekretaris");
    const upload = async (bytes: Uint8Array) => {
      const form = new FormData();
      form.set("file", new File([bytes], "registry.xlsx"));
      return callJson<{ written: boolean; errors: { sheet: string; row: number; field: string }[] }>(
        `${base}/import?dryRun=false`,
        { token: tsek.token, body: form },
      );
    };
    const twice = await upload(writeWorkbook(sheets));
    expect(twice.body.written).toBe(false);
    expect(twice.body.errors).toEqual([
      expect.objectContaining({ sheet: "Kendaraan", row: 3, field: "plate" }),
    ]);
    cars?.rows.pop();
    const once = await upload(writeWorkbook(sheets));
    expect(once.body, JSON.stringify(once.body)).toMatchObject({ written: true, errors: [] });
    const list = await callJson<{ items: { id: string }[] }>(`${base}/kk?q=d77rt`, { token: tsek.token });
    const card = await callJson<Card>(`${base}/kk/${list.body.items[0]?.id}`, { token: tsek.token });
    expect(card.body).toMatchObject({ headWhatsapp: "6281234567890", vehicles: [{ plate: "D 77 RT" }] });
  });
});

describe("family cards' WhatsApp numbers", () => {
  it("stores any spelling as the international digits and refuses what is not a number", async () => {
    const { sek, unitId, a } = await setup();
    const samples = fc.sample(
      storedMobile.chain((stored) => fc.tuple(fc.constant(stored), typedSpelling(stored))),
      { numRuns: 6, seed: 49 },
    );
    for (const [stored, typed] of samples) {
      const res = await callJson<Card>(`${base}/kk/${a.id}`, {
        method: "PUT",
        token: sek.token,
        body: { headWhatsapp: typed },
      });
      expect(res.status, typed).toBe(200);
      expect(res.body.headWhatsapp, typed).toBe(stored);
    }
    const card = await newCard(sek, unitId, "Citra Lestari", { headWhatsapp: "+62 812-3456-7890" });
    expect(card.headWhatsapp).toBe("6281234567890");
    for (const bad of ["0812-abc-7890", "12", "++62812345678"]) {
      expectProblem(
        await callJson(`${base}/kk/${a.id}`, {
          method: "PUT",
          token: sek.token,
          body: { headWhatsapp: bad },
        }),
        400,
        "invalid_input",
      );
    }
    expect(phoneSpellings("6281234567890")).toContain("0812-3456-7890");
  });

  it("migration 0034 rewrites numbers stored in the old rule's spellings, and leaves what it cannot", async () => {
    const { tenant, sek, a, b, unitId } = await setup();
    const c = await newCard(sek, unitId, "Dewi Sartika");
    const db = tenantD1(tenant);
    await db.batch(
      [
        [a.id, "081234567890"],
        [b.id, "+6281234567891"],
        [c.id, "0123456789012345"],
      ].map(([id, number]) =>
        db.prepare("UPDATE family_cards SET head_whatsapp = ? WHERE id = ?").bind(number, id),
      ),
    );
    const rewrite = TENANT_MIGRATIONS.find((m) => m.name === "0034_plate_keys.sql")?.statements.find((s) =>
      s.includes("UPDATE `family_cards` SET `head_whatsapp`"),
    );
    expect(rewrite).toBeDefined();
    await db.prepare(rewrite ?? "").run();
    const stored = await db
      .prepare("SELECT id, head_whatsapp AS w FROM family_cards WHERE id IN (?, ?, ?)")
      .bind(a.id, b.id, c.id)
      .all<{ id: string; w: string }>();
    const byId = new Map(stored.results.map((r) => [r.id, r.w]));
    expect(byId.get(a.id)).toBe("6281234567890");
    expect(byId.get(b.id)).toBe("6281234567891");
    // 0 and 15 digits would be 16 as 62…: not a number toMsisdn accepts, kept as it was.
    expect(byId.get(c.id)).toBe("0123456789012345");
  });
});
