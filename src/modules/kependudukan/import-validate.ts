import type { RawRow } from "../../core/db/raw";
import { newId } from "../../core/ids";
import { normaliseBlock, normaliseHouseNumber } from "../../core/schemas";
import type { CellIn } from "../../platform/spreadsheets";
import { badFile, cell, day, pick, type RowError, type Table, text } from "./import-parse";
import { kkNumberProblems, nikProblems } from "./nik";
import {
  EDUCATIONS,
  type familyMembers,
  type KK_STATUSES,
  MARITAL_STATUSES,
  RELATIONSHIPS,
  RELIGIONS,
  RESIDENCE_STATUSES,
  type vehicles,
} from "./tables";

/**
 * Checking the upload, sheet by sheet, against the rules the API applies one by one (NIK rules, enums,
 * dates) and against uniqueness in the file and in the tenant. Every problem is collected (up to 1000),
 * and the rows that pass become the values the write inserts. This file holds the state of a check
 * and the Anggota sheet; `import-sheets.ts` the optional KK, Kendaraan and Unit sheets.
 */

export interface NewCard {
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

/** What the tenant holds already: the values the file may not repeat, and the houses it may reuse. */
export interface Taken {
  niks: Set<string>;
  cards: Set<string>;
  plates: Set<string>;
  unitIds: Map<string, string>;
}

export interface UnitDetail {
  occupancy: string | null;
  latitude: number | null;
  longitude: number | null;
}

/** The state of one check: what it found wrong and what it would write. */
export interface Checked {
  errors: RowError[];
  taken: Taken;
  now: string;
  newUnits: Map<string, { id: string; block: string; number: string }>;
  cards: Map<string, NewCard>;
  members: RawRow<typeof familyMembers>[];
  seenNiks: Map<string, number>;
  cars: RawRow<typeof vehicles>[];
  seenPlates: Map<string, number>;
  unitDetails: Map<string, UnitDetail>;
}

export function fail(check: Checked, sheet: string, row: number, field: string, message: string) {
  if (check.errors.length < 1000) {
    check.errors.push({ sheet, row, field, message });
  }
}

export function newCheck(taken: Taken, now: string): Checked {
  return {
    errors: [],
    taken,
    now,
    newUnits: new Map(),
    cards: new Map(),
    members: [],
    seenNiks: new Map(),
    cars: [],
    seenPlates: new Map(),
    unitDetails: new Map(),
  };
}

/**
 * Checks the Anggota sheet row by row as it is read, which must have rows, and answers how many it has
 * (from the header to its last non-empty row).
 */
export function checkMembers(check: Checked, tables: Table[]): number {
  const memberTable = tables.find((t) => t.sheet === "Anggota");
  let last = memberTable?.headerLine ?? 0;
  if (memberTable) {
    for (const { line, cells } of memberTable.rows) {
      checkMemberRow(check, memberTable, cells, line);
      last = line;
    }
  }
  if (!memberTable || last === memberTable.headerLine) {
    throw badFile("The Anggota sheet has no rows.", "Anggota");
  }
  for (const card of check.cards.values()) {
    if (card.headNik === null) {
      fail(
        check,
        "Anggota",
        card.firstRow,
        "relationship",
        "this KK has no member with Hubungan kepala_keluarga",
      );
    }
  }
  return last - memberTable.headerLine;
}

// ── Anggota ─────────────────────────────────────────────────────────────────────────────────────────

function checkMemberRow(check: Checked, table: Table, row: CellIn[], line: number) {
  if (row.every((c) => c === null)) {
    return;
  }
  const member = readMember(check, table, row, line);
  checkMemberNumbers(check, member, line);
  placeMember(check, member, line);
}

type MemberCells = ReturnType<typeof readMember>;

/** The cells of one member row, parsed; each missing or malformed one is a row error. */
function readMember(check: Checked, table: Table, row: CellIn[], line: number) {
  const get = (name: string) => cell(table, row, name);
  const req = (name: string, field: string) => {
    const v = get(name);
    if (v === null) {
      fail(check, "Anggota", line, field, "required");
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
      fail(check, "Anggota", line, field, result.error);
    } else {
      values[field] = result.value;
    }
  }
  return { kkNumber, blockRaw, numberRaw, nik, name, values };
}

/** The name's length, the KK number and the NIK: their rules, and uniqueness in the file and tenant. */
function checkMemberNumbers(check: Checked, member: MemberCells, line: number) {
  const { kkNumber, nik, name, values } = member;
  if (name !== null && name.length < 2) {
    fail(check, "Anggota", line, "name", "at least 2 characters");
  }
  if (kkNumber !== null) {
    for (const message of kkNumberProblems(kkNumber)) {
      fail(check, "Anggota", line, "kkNumber", message);
    }
    if (check.taken.cards.has(kkNumber)) {
      fail(check, "Anggota", line, "kkNumber", "this KK number is already registered");
    }
  }
  if (nik !== null) {
    const sexValue = values.sex === "L" || values.sex === "P" ? values.sex : null;
    for (const message of nikProblems(nik, { sex: sexValue, birthDate: values.birthDate ?? null })) {
      fail(check, "Anggota", line, "nik", message);
    }
    const earlier = check.seenNiks.get(nik);
    if (earlier !== undefined) {
      fail(check, "Anggota", line, "nik", `the same NIK as row ${earlier}`);
    } else {
      check.seenNiks.set(nik, line);
    }
    if (check.taken.niks.has(nik)) {
      fail(check, "Anggota", line, "nik", "this NIK is already registered");
    }
  }
}

/** Puts a complete member in its house and on its card (one KK, one house, one head), and keeps it. */
function placeMember(check: Checked, member: MemberCells, line: number) {
  const { kkNumber, blockRaw, numberRaw, nik, name, values } = member;
  if (kkNumber === null || blockRaw === null || numberRaw === null || nik === null || name === null) {
    return;
  }
  const block = normaliseBlock(blockRaw);
  const number = normaliseHouseNumber(numberRaw);
  if (block.length > 20 || number.length > 20) {
    fail(check, "Anggota", line, "block", "block and house number are at most 20 characters");
    return;
  }
  const unitKey = `${block}\u0000${number}`;
  if (!check.taken.unitIds.has(unitKey) && !check.newUnits.has(unitKey)) {
    check.newUnits.set(unitKey, { id: newId(), block, number });
  }
  let card = check.cards.get(kkNumber);
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
    check.cards.set(kkNumber, card);
  } else if (card.unitKey !== unitKey) {
    fail(
      check,
      "Anggota",
      line,
      "block",
      `row ${card.firstRow} puts this KK in another house: one KK, one house`,
    );
  }
  if (values.relationship === "kepala_keluarga") {
    if (card.headNik !== null) {
      fail(
        check,
        "Anggota",
        line,
        "relationship",
        `the KK of row ${card.firstRow} already has a kepala_keluarga`,
      );
    }
    card.headName = name;
    card.headNik = nik;
  }
  check.members.push({
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
    updatedAt: check.now,
  });
}
