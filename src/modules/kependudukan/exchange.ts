import { asc, eq, gt, sql } from "drizzle-orm";
import { audit, rawAudit } from "../../core/audit";
import type { TenantCtx, TenantDb } from "../../core/context";
import { jsonInserts, type RawRow, rawD1 } from "../../core/db/raw";
import { Invalid } from "../../core/errors";
import { log } from "../../core/http/log";
import { newId } from "../../core/ids";
import { normaliseBlock, normaliseHouseNumber } from "../../core/schemas";
import {
  type CellIn,
  type CellOut,
  parseCsv,
  readWorkbook,
  streamCsv,
  streamWorkbook,
} from "../../core/spreadsheet";
import { registryConflict } from "./families";
import { kkNumberProblems, nikProblems } from "./nik";
import { normalisePlate } from "./schemas";
import {
  EDUCATIONS,
  familyCards,
  familyMembers,
  KK_STATUSES,
  MARITAL_STATUSES,
  OCCUPANCIES,
  RELATIONSHIPS,
  RELIGIONS,
  RESIDENCE_STATUSES,
  units,
  VEHICLE_KINDS,
  vehicles,
} from "./tables";

/**
 * The registry as a spreadsheet and back. The export writes four sheets with Indonesian headers;
 * the import reads the same layout (the `Anggota` sheet, or a CSV of it, plus optional `KK` and
 * `Kendaraan` sheets), checks every row and writes all of it in one batch, or nothing.
 */

const KK_HEADER = [
  "No. KK",
  "Blok",
  "No. Rumah",
  "Kepala Keluarga",
  "NIK Kepala",
  "WhatsApp",
  "Status",
  "Tanggal Status",
  "Catatan",
  "Jumlah Anggota",
] as const;
export const MEMBER_HEADER = [
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
] as const;
const VEHICLE_HEADER = ["No. KK", "Plat Nomor", "Jenis", "Merek", "Model", "Warna"] as const;
const UNIT_HEADER = ["Blok", "No. Rumah", "Hunian", "Lintang", "Bujur"] as const;

/** Rows per read: a page is all the export holds in memory at once (one D1 round trip each). */
const PAGE = 1000;

/** Keyset pages of a query ordered by `id`, read one at a time as the writer asks for them. */
async function* pages<T extends { id: string }>(
  read: (after: string | null) => Promise<T[]>,
  present: (row: T) => CellOut[],
): AsyncGenerator<CellOut[][]> {
  let after: string | null = null;
  for (;;) {
    const rows = await read(after);
    if (rows.length > 0) {
      yield rows.map(present);
    }
    if (rows.length < PAGE) {
      return;
    }
    after = rows.at(-1)?.id ?? null;
  }
}

/** Every member with their card's number and house, by id: one joined read a page. */
function memberPages(db: TenantDb) {
  return pages(
    (after) =>
      db
        .select({
          id: familyMembers.id,
          kkNumber: familyCards.kkNumber,
          block: units.block,
          number: units.number,
          nik: familyMembers.nik,
          name: familyMembers.name,
          relationship: familyMembers.relationship,
          sex: familyMembers.sex,
          birthPlace: familyMembers.birthPlace,
          birthDate: familyMembers.birthDate,
          religion: familyMembers.religion,
          education: familyMembers.education,
          occupation: familyMembers.occupation,
          maritalStatus: familyMembers.maritalStatus,
          citizenship: familyMembers.citizenship,
          livingStatus: familyMembers.livingStatus,
          deathDate: familyMembers.deathDate,
          residenceStatus: familyMembers.residenceStatus,
        })
        .from(familyMembers)
        .leftJoin(familyCards, eq(familyCards.id, familyMembers.familyCardId))
        .leftJoin(units, eq(units.id, familyCards.unitId))
        .where(after ? gt(familyMembers.id, after) : undefined)
        .orderBy(asc(familyMembers.id))
        .limit(PAGE),
    (m) => [
      m.kkNumber,
      m.block,
      m.number,
      m.nik,
      m.name,
      m.relationship,
      m.sex,
      m.birthPlace,
      m.birthDate,
      m.religion,
      m.education,
      m.occupation,
      m.maritalStatus,
      m.citizenship,
      m.livingStatus,
      m.deathDate,
      m.residenceStatus,
    ],
  );
}

function cardPages(db: TenantDb) {
  return pages(
    (after) =>
      db
        .select({
          id: familyCards.id,
          kkNumber: familyCards.kkNumber,
          block: units.block,
          number: units.number,
          headName: familyCards.headName,
          headNik: familyCards.headNik,
          headWhatsapp: familyCards.headWhatsapp,
          status: familyCards.status,
          statusDate: familyCards.statusDate,
          notes: familyCards.notes,
          members: sql<number>`(select count(*) from ${familyMembers} where ${familyMembers.familyCardId} = ${familyCards.id})`,
        })
        .from(familyCards)
        .leftJoin(units, eq(units.id, familyCards.unitId))
        .where(after ? gt(familyCards.id, after) : undefined)
        .orderBy(asc(familyCards.id))
        .limit(PAGE),
    (c) => [
      c.kkNumber,
      c.block,
      c.number,
      c.headName,
      c.headNik,
      c.headWhatsapp,
      c.status,
      c.statusDate,
      c.notes,
      Number(c.members),
    ],
  );
}

function vehiclePages(db: TenantDb) {
  return pages(
    (after) =>
      db
        .select({
          id: vehicles.id,
          kkNumber: familyCards.kkNumber,
          plate: vehicles.plate,
          kind: vehicles.kind,
          brand: vehicles.brand,
          model: vehicles.model,
          colour: vehicles.colour,
        })
        .from(vehicles)
        .leftJoin(familyCards, eq(familyCards.id, vehicles.familyCardId))
        .where(after ? gt(vehicles.id, after) : undefined)
        .orderBy(asc(vehicles.id))
        .limit(PAGE),
    (v) => [v.kkNumber, v.plate, v.kind, v.brand, v.model, v.colour],
  );
}

function unitPages(db: TenantDb) {
  return pages(
    (after) =>
      db
        .select({
          id: units.id,
          block: units.block,
          number: units.number,
          occupancy: units.occupancy,
          latitude: units.latitude,
          longitude: units.longitude,
        })
        .from(units)
        .where(after ? gt(units.id, after) : undefined)
        .orderBy(asc(units.id))
        .limit(PAGE),
    (u) => [u.block, u.number, u.occupancy, u.latitude, u.longitude],
  );
}

/**
 * The whole registry: `xlsx` (sheets KK, Anggota, Kendaraan, Unit) or `csv` (Anggota), streamed: the
 * answer starts once the export is audited, and each sheet is read from D1 in keyset pages as the
 * client takes the bytes, so memory holds one page, never the registry (18,000 persons fit a Worker
 * with room to spare; see ADR spreadsheets). Pages are separate reads, as any export of this size must
 * be: a change made while the file is being written may or may not be in it. NIK and KK numbers are
 * whole: the route is the secretary's and the admin's only. The audit record says who exported, and
 * how much, not what.
 */
/**
 * A read that fails once the answer has started cannot become a problem response: the stream is cut
 * (the client's file is incomplete, never silently short) and the failure is logged here.
 */
async function* logged(ctx: TenantCtx, sheet: string, source: AsyncGenerator<CellOut[][]>) {
  try {
    yield* source;
  } catch (error) {
    log("error", "registry_export_failed", {
      requestId: ctx.requestId,
      sheet,
      reason: error instanceof Error ? error.message : String(error),
    });
    throw error;
  }
}

export async function exportRegistry({ ctx, format }: { ctx: TenantCtx; format: "xlsx" | "csv" }) {
  const counts = await ctx.db
    .select({
      families: sql<number>`count(*)`,
      members: sql<number>`(select count(*) from ${familyMembers})`,
    })
    .from(familyCards)
    .get();
  const families = Number(counts?.families ?? 0);
  const members = Number(counts?.members ?? 0);
  await ctx.db.batch([
    audit(ctx, {
      action: "kependudukan.export",
      targetType: "registry",
      targetId: ctx.tenant.id,
      detail: { format, families, members },
    }),
  ]);
  if (format === "csv") {
    return { body: streamCsv(MEMBER_HEADER, logged(ctx, "Anggota", memberPages(ctx.db))), rows: members };
  }
  const body = streamWorkbook([
    {
      name: "KK",
      header: KK_HEADER,
      widths: [20, 8, 10, 28, 20, 16, 10, 14, 30, 8],
      pages: () => logged(ctx, "KK", cardPages(ctx.db)),
    },
    {
      name: "Anggota",
      header: MEMBER_HEADER,
      widths: [20, 8, 10, 20, 28, 16, 6, 16, 12],
      pages: () => logged(ctx, "Anggota", memberPages(ctx.db)),
    },
    {
      name: "Kendaraan",
      header: VEHICLE_HEADER,
      pages: () => logged(ctx, "Kendaraan", vehiclePages(ctx.db)),
    },
    { name: "Unit", header: UNIT_HEADER, pages: () => logged(ctx, "Unit", unitPages(ctx.db)) },
  ]);
  return { body, rows: members };
}

// ── Import ──────────────────────────────────────────────────────────────────────────────────────────

export interface RowError {
  sheet: string;
  row: number;
  field: string;
  message: string;
}

type Table = { sheet: string; header: string[]; rows: CellIn[][] };

function badFile(message: string, field = "file"): Invalid {
  return new Invalid("invalid_spreadsheet", message, [{ field, message }]);
}

function tableOf(sheet: string, rows: CellIn[][], required: readonly string[]): Table {
  const header = (rows[0] ?? []).map((h) => (h ?? "").trim());
  const missing = required.filter((h) => !header.some((x) => x.toLowerCase() === h.toLowerCase()));
  if (missing.length > 0) {
    throw badFile(`Sheet ${sheet} lacks the column(s): ${missing.join(", ")}.`, sheet);
  }
  return { sheet, header, rows: rows.slice(1) };
}

function cell(table: Table, row: CellIn[], name: string): string | null {
  const at = table.header.findIndex((h) => h.toLowerCase() === name.toLowerCase());
  return at < 0 ? null : (row[at] ?? null);
}

/** Reads the upload as the export writes it; a CSV is the Anggota sheet alone. */
export function readRegistryFile(bytes: Uint8Array, kind: "xlsx" | "csv"): Table[] {
  if (kind === "csv") {
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      throw badFile("The CSV is not UTF-8 text.");
    }
    return [tableOf("Anggota", parseCsv(text), MEMBER_REQUIRED)];
  }
  const sheets = readWorkbook(bytes);
  const find = (name: string) => sheets.find((s) => s.name.trim().toLowerCase() === name.toLowerCase());
  const members = find("Anggota");
  if (!members) {
    throw badFile(
      `The workbook has no sheet "Anggota" (it has: ${sheets.map((s) => s.name).join(", ")}).`,
      "Anggota",
    );
  }
  const tables = [tableOf("Anggota", members.rows, MEMBER_REQUIRED)];
  const cards = find("KK");
  if (cards) {
    tables.push(tableOf("KK", cards.rows, ["No. KK"]));
  }
  const cars = find("Kendaraan");
  if (cars) {
    tables.push(tableOf("Kendaraan", cars.rows, ["No. KK", "Plat Nomor", "Jenis"]));
  }
  const unitSheet = find("Unit");
  if (unitSheet) {
    tables.push(tableOf("Unit", unitSheet.rows, ["Blok", "No. Rumah"]));
  }
  return tables;
}

const MEMBER_REQUIRED = ["No. KK", "Blok", "No. Rumah", "NIK", "Nama", "Hubungan", "Jenis Kelamin"] as const;

const code = (v: string) =>
  v
    .trim()
    .toLowerCase()
    .replace(/[\s/-]+/g, "_");

type Parsed<T> = { value: T | null } | { error: string };

function pick<T extends string>(
  value: string | null,
  allowed: readonly T[],
  aliases: Record<string, T> = {},
): Parsed<T> {
  if (value === null) {
    return { value: null };
  }
  const key = code(value);
  const found = allowed.find((a) => a.toLowerCase() === key) ?? aliases[key];
  return found ? { value: found } : { error: `one of ${allowed.join(", ")}` };
}

/** YYYY-MM-DD, or DD-MM-YYYY / DD/MM/YYYY as typed in Indonesia. */
function day(value: string | null): Parsed<string> {
  if (value === null) {
    return { value: null };
  }
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const local = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})$/.exec(value);
  const [y, m, d] = iso ? [iso[1], iso[2], iso[3]] : local ? [local[3], local[2], local[1]] : [];
  if (!y || !m || !d) {
    return { error: "a date (YYYY-MM-DD or DD-MM-YYYY)" };
  }
  const text = `${y}-${m.padStart(2, "0")}-${d.padStart(2, "0")}`;
  const parsed = new Date(`${text}T00:00:00Z`);
  return Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== text
    ? { error: "not a calendar date" }
    : { value: text };
}

function text(value: string | null, max: number): Parsed<string> {
  if (value === null) {
    return { value: null };
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
  if (value.length > max || /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(value)) {
    return { error: `text of at most ${max} characters, without control characters` };
  }
  return { value };
}

interface NewCard {
  id: string;
  kkNumber: string;
  unitKey: string;
  headName: string | null;
  headNik: string | null;
  headWhatsapp: string | null;
  status: (typeof KK_STATUSES)[number];
  statusDate: string | null;
  notes: string | null;
  firstRow: number;
}

/**
 * Validates every row of the upload against the rules the API applies one by one (NIK rules, enums,
 * dates) and against uniqueness in the file and in the tenant, then (when `dryRun` is false and no
 * row is wrong) writes units, cards, members and vehicles in one batch, a few statements of JSON
 * rows each, with one audit record (counts only).
 */
export async function importRegistry({
  ctx,
  tables,
  dryRun,
}: {
  ctx: TenantCtx;
  tables: Table[];
  dryRun: boolean;
}) {
  const errors: RowError[] = [];
  const fail = (sheet: string, row: number, field: string, message: string) => {
    if (errors.length < 1000) {
      errors.push({ sheet, row, field, message });
    }
  };
  const [existingNiks, existingCards, existingPlates, existingUnits] = await ctx.db.batch([
    ctx.db.select({ v: familyMembers.nik }).from(familyMembers),
    ctx.db.select({ v: familyCards.kkNumber }).from(familyCards),
    ctx.db.select({ v: vehicles.plate }).from(vehicles),
    ctx.db.select({ id: units.id, block: units.block, number: units.number }).from(units),
  ]);
  const takenNiks = new Set(existingNiks.map((r) => r.v));
  const takenCards = new Set(existingCards.map((r) => r.v));
  const takenPlates = new Set(existingPlates.map((r) => r.v));
  const unitIds = new Map(existingUnits.map((u) => [`${u.block}\u0000${u.number}`, u.id]));
  const newUnits = new Map<string, { id: string; block: string; number: string }>();

  const cards = new Map<string, NewCard>();
  const members: RawRow<typeof familyMembers>[] = [];
  const seenNiks = new Map<string, number>();
  const now = new Date().toISOString();
  const memberTable = tables.find((t) => t.sheet === "Anggota");
  if (!memberTable || memberTable.rows.length === 0) {
    throw badFile("The Anggota sheet has no rows.", "Anggota");
  }
  memberTable.rows.forEach((row, i) => {
    const line = i + 2;
    if (row.every((c) => c === null)) {
      return;
    }
    const get = (name: string) => cell(memberTable, row, name);
    const req = (name: string, field: string) => {
      const v = get(name);
      if (v === null) {
        fail("Anggota", line, field, "required");
      }
      return v;
    };
    const kkNumber = req("No. KK", "kkNumber");
    const blockRaw = req("Blok", "block");
    const numberRaw = req("No. Rumah", "number");
    const nik = req("NIK", "nik");
    const name = req("Nama", "name");
    const relationship = pick(req("Hubungan", "relationship"), RELATIONSHIPS);
    const sex = pick(req("Jenis Kelamin", "sex"), ["L", "P"] as const, {
      laki_laki: "L",
      pria: "L",
      perempuan: "P",
      wanita: "P",
    });
    const fields = {
      birthPlace: text(get("Tempat Lahir"), 80),
      birthDate: day(get("Tanggal Lahir")),
      religion: pick(get("Agama"), RELIGIONS),
      education: pick(get("Pendidikan"), EDUCATIONS),
      occupation: text(get("Pekerjaan"), 80),
      maritalStatus: pick(get("Status Perkawinan"), MARITAL_STATUSES),
      citizenship: pick(get("Kewarganegaraan"), ["WNI", "WNA"] as const),
      livingStatus: pick(get("Status Hidup"), ["hidup", "meninggal"] as const),
      deathDate: day(get("Tanggal Meninggal")),
      residenceStatus: pick(get("Status Tinggal"), RESIDENCE_STATUSES),
      relationship,
      sex,
      name: text(name, 120),
    };
    const values: Record<string, string | null> = {};
    for (const [field, result] of Object.entries(fields)) {
      if ("error" in result) {
        fail("Anggota", line, field, result.error);
      } else {
        values[field] = result.value;
      }
    }
    if (name !== null && name.length < 2) {
      fail("Anggota", line, "name", "at least 2 characters");
    }
    if (kkNumber !== null) {
      for (const message of kkNumberProblems(kkNumber)) {
        fail("Anggota", line, "kkNumber", message);
      }
      if (takenCards.has(kkNumber)) {
        fail("Anggota", line, "kkNumber", "this KK number is already registered");
      }
    }
    if (nik !== null) {
      const sexValue = values.sex === "L" || values.sex === "P" ? values.sex : null;
      for (const message of nikProblems(nik, { sex: sexValue, birthDate: values.birthDate ?? null })) {
        fail("Anggota", line, "nik", message);
      }
      const earlier = seenNiks.get(nik);
      if (earlier !== undefined) {
        fail("Anggota", line, "nik", `the same NIK as row ${earlier}`);
      } else {
        seenNiks.set(nik, line);
      }
      if (takenNiks.has(nik)) {
        fail("Anggota", line, "nik", "this NIK is already registered");
      }
    }
    if (kkNumber === null || blockRaw === null || numberRaw === null || nik === null || name === null) {
      return;
    }
    const block = normaliseBlock(blockRaw);
    const number = normaliseHouseNumber(numberRaw);
    if (block.length > 20 || number.length > 20) {
      fail("Anggota", line, "block", "block and house number are at most 20 characters");
      return;
    }
    const unitKey = `${block}\u0000${number}`;
    if (!unitIds.has(unitKey) && !newUnits.has(unitKey)) {
      newUnits.set(unitKey, { id: newId(), block, number });
    }
    let card = cards.get(kkNumber);
    if (!card) {
      card = {
        id: newId(),
        kkNumber,
        unitKey,
        headName: null,
        headNik: null,
        headWhatsapp: null,
        status: "aktif",
        statusDate: null,
        notes: null,
        firstRow: line,
      };
      cards.set(kkNumber, card);
    } else if (card.unitKey !== unitKey) {
      fail("Anggota", line, "block", `row ${card.firstRow} puts this KK in another house: one KK, one house`);
    }
    if (values.relationship === "kepala_keluarga") {
      if (card.headNik !== null) {
        fail("Anggota", line, "relationship", `the KK of row ${card.firstRow} already has a kepala_keluarga`);
      }
      card.headName = name;
      card.headNik = nik;
    }
    members.push({
      id: newId(),
      familyCardId: card.id,
      name,
      nik,
      relationship: values.relationship,
      sex: values.sex,
      birthDate: values.birthDate,
      birthPlace: values.birthPlace,
      religion: values.religion,
      education: values.education,
      occupation: values.occupation,
      maritalStatus: values.maritalStatus,
      citizenship: values.citizenship ?? "WNI",
      livingStatus: values.livingStatus ?? "hidup",
      deathDate: values.deathDate,
      residenceStatus: values.residenceStatus,
      updatedAt: now,
    });
  });
  for (const card of cards.values()) {
    if (card.headNik === null) {
      fail("Anggota", card.firstRow, "relationship", "this KK has no member with Hubungan kepala_keluarga");
    }
  }

  const kkTable = tables.find((t) => t.sheet === "KK");
  kkTable?.rows.forEach((row, i) => {
    const line = i + 2;
    const kkNumber = cell(kkTable, row, "No. KK");
    if (row.every((c) => c === null) || kkNumber === null) {
      return;
    }
    const card = cards.get(kkNumber);
    if (!card) {
      fail("KK", line, "kkNumber", "no member of this KK in the Anggota sheet");
      return;
    }
    const whatsapp = cell(kkTable, row, "WhatsApp");
    if (whatsapp !== null && !/^\+?\d{9,15}$/.test(whatsapp)) {
      fail("KK", line, "headWhatsapp", "9 to 15 digits");
    } else {
      card.headWhatsapp = whatsapp;
    }
    const status = pick(cell(kkTable, row, "Status"), KK_STATUSES);
    const statusDate = day(cell(kkTable, row, "Tanggal Status"));
    const notes = text(cell(kkTable, row, "Catatan"), 1000);
    if ("error" in status) {
      fail("KK", line, "status", status.error);
    } else if (status.value) {
      card.status = status.value;
    }
    if ("error" in statusDate) {
      fail("KK", line, "statusDate", statusDate.error);
    } else {
      card.statusDate = statusDate.value;
    }
    if ("error" in notes) {
      fail("KK", line, "notes", notes.error);
    } else {
      card.notes = notes.value;
    }
  });

  const cars: RawRow<typeof vehicles>[] = [];
  const seenPlates = new Map<string, number>();
  const carTable = tables.find((t) => t.sheet === "Kendaraan");
  carTable?.rows.forEach((row, i) => {
    const line = i + 2;
    if (row.every((c) => c === null)) {
      return;
    }
    const kkNumber = cell(carTable, row, "No. KK");
    const card = kkNumber === null ? undefined : cards.get(kkNumber);
    if (!card) {
      fail("Kendaraan", line, "kkNumber", "a KK number from the Anggota sheet is required");
    }
    const rawPlate = cell(carTable, row, "Plat Nomor");
    const plate = rawPlate === null ? null : normalisePlate(rawPlate);
    if (plate === null || !/^[A-Z0-9 ]{1,15}$/.test(plate)) {
      fail("Kendaraan", line, "plate", "letters, digits and spaces, at most 15");
    } else if (seenPlates.has(plate)) {
      fail("Kendaraan", line, "plate", `the same plate as row ${seenPlates.get(plate)}`);
    } else if (takenPlates.has(plate)) {
      fail("Kendaraan", line, "plate", "this plate is already registered");
    } else {
      seenPlates.set(plate, line);
    }
    const kind = pick(cell(carTable, row, "Jenis"), VEHICLE_KINDS);
    if ("error" in kind || kind.value === null) {
      fail("Kendaraan", line, "kind", `one of ${VEHICLE_KINDS.join(", ")}`);
    }
    const extra = {
      brand: text(cell(carTable, row, "Merek"), 40),
      model: text(cell(carTable, row, "Model"), 60),
      colour: text(cell(carTable, row, "Warna"), 30),
    };
    for (const [field, result] of Object.entries(extra)) {
      if ("error" in result) {
        fail("Kendaraan", line, field, result.error);
      }
    }
    if (card && plate && "value" in kind) {
      cars.push({
        id: newId(),
        familyCardId: card.id,
        plate,
        kind: kind.value,
        brand: "value" in extra.brand ? extra.brand.value : null,
        model: "value" in extra.model ? extra.model.value : null,
        colour: "value" in extra.colour ? extra.colour.value : null,
        updatedAt: now,
      });
    }
  });

  const unitTable = tables.find((t) => t.sheet === "Unit");
  const unitDetails = new Map<
    string,
    { occupancy: string | null; latitude: number | null; longitude: number | null }
  >();
  unitTable?.rows.forEach((row, i) => {
    const line = i + 2;
    const block = cell(unitTable, row, "Blok");
    const number = cell(unitTable, row, "No. Rumah");
    if (block === null || number === null) {
      return;
    }
    const occupancy = pick(cell(unitTable, row, "Hunian"), OCCUPANCIES);
    const lat = cell(unitTable, row, "Lintang");
    const lng = cell(unitTable, row, "Bujur");
    const latitude = lat === null ? null : Number(lat);
    const longitude = lng === null ? null : Number(lng);
    if ("error" in occupancy) {
      fail("Unit", line, "occupancy", occupancy.error);
    }
    if ((latitude === null) !== (longitude === null)) {
      fail("Unit", line, "latitude", "latitude and longitude go together");
    } else if (
      latitude !== null &&
      longitude !== null &&
      (!Number.isFinite(latitude) ||
        Math.abs(latitude) > 90 ||
        !Number.isFinite(longitude) ||
        Math.abs(longitude) > 180)
    ) {
      fail("Unit", line, "latitude", "coordinates out of range");
    }
    const key = `${normaliseBlock(block)}\u0000${normaliseHouseNumber(number)}`;
    if (!unitIds.has(key) && !newUnits.has(key)) {
      newUnits.set(key, { id: newId(), block: normaliseBlock(block), number: normaliseHouseNumber(number) });
    }
    unitDetails.set(key, {
      occupancy: "value" in occupancy ? occupancy.value : null,
      latitude,
      longitude,
    });
  });

  const report = {
    dryRun,
    ok: errors.length === 0,
    rows: memberTable.rows.length,
    families: cards.size,
    members: members.length,
    vehicles: cars.length,
    units: newUnits.size,
    written: false,
    errors,
  };
  if (dryRun || errors.length > 0) {
    return report;
  }

  const unitValues = [...newUnits.entries()].map(
    ([key, u]): RawRow<typeof units> => ({
      id: u.id,
      block: u.block,
      number: u.number,
      occupancy: unitDetails.get(key)?.occupancy ?? null,
      latitude: unitDetails.get(key)?.latitude ?? null,
      longitude: unitDetails.get(key)?.longitude ?? null,
      updatedAt: now,
    }),
  );
  const cardValues = [...cards.values()].map(
    (c): RawRow<typeof familyCards> => ({
      id: c.id,
      kkNumber: c.kkNumber,
      unitId: unitIds.get(c.unitKey) ?? newUnits.get(c.unitKey)?.id,
      headName: c.headName,
      headNik: c.headNik,
      headWhatsapp: c.headWhatsapp,
      status: c.status,
      statusDate: c.status === "aktif" ? null : (c.statusDate ?? now.slice(0, 10)),
      notes: c.notes,
      updatedAt: now,
    }),
  );
  // Raw statements on the tenant's own D1 (drizzle cannot batch an INSERT … SELECT FROM json_each).
  const d1 = rawD1(ctx);
  const statements: D1PreparedStatement[] = [
    ...jsonInserts(d1, units, unitValues),
    ...jsonInserts(d1, familyCards, cardValues),
    ...jsonInserts(d1, familyMembers, members),
    ...jsonInserts(d1, vehicles, cars),
    rawAudit(ctx, {
      action: "kependudukan.import",
      targetType: "registry",
      targetId: ctx.tenant.id,
      detail: { families: cards.size, members: members.length, vehicles: cars.length, units: newUnits.size },
    }),
  ];
  try {
    // One D1 batch, so one transaction: the whole file lands, or none of it.
    await d1.batch(statements);
  } catch (error) {
    // Someone registered the same NIK, KK number or plate between the check and the write.
    registryConflict(error);
  }
  return { ...report, written: true };
}
