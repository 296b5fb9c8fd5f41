import { newId } from "../../core/ids";
import { toMsisdn } from "../../core/phone";
import { displayPlate, plateKey } from "../../core/plate";
import { normaliseBlock, normaliseHouseNumber } from "../../core/schemas";
import type { CellIn } from "../../platform/spreadsheets";
import { cell, day, pick, type Table, text } from "./import-parse";
import { type Checked, fail } from "./import-validate";
import { KK_STATUSES, OCCUPANCIES, VEHICLE_KINDS } from "./tables";

/** Checking the optional sheets of the upload: KK details, Kendaraan and Unit, after the Anggota sheet. */
export function checkOtherSheets(check: Checked, tables: Table[]) {
  const each = (
    name: string,
    checkRow: (check: Checked, table: Table, row: CellIn[], line: number) => void,
  ) => {
    const table = tables.find((t) => t.sheet === name);
    if (!table) {
      return;
    }
    for (const { line, cells } of table.rows) {
      checkRow(check, table, cells, line);
    }
  };
  each("KK", checkCardRow);
  each("Kendaraan", checkVehicleRow);
  each("Unit", checkUnitRow);
}

function checkCardRow(check: Checked, kkTable: Table, row: CellIn[], line: number) {
  const kkNumber = cell(kkTable, row, "No. KK");
  if (row.every((c) => c === null) || kkNumber === null) {
    return;
  }
  const card = check.cards.get(kkNumber);
  if (!card) {
    fail(check, "KK", line, "kkNumber", "no member of this KK in the Anggota sheet");
    return;
  }
  // Stored as the API stores it (ADR 0047): `0812-3456-7890` and `+62 812…` are `62812…`.
  const typed = cell(kkTable, row, "WhatsApp");
  const whatsapp = typed === null ? null : toMsisdn(typed.trim());
  if (typed !== null && whatsapp === null) {
    fail(check, "KK", line, "headWhatsapp", "not a phone number (08…, +62…, 62…, or + and the country code)");
  } else {
    card.headWhatsapp = whatsapp;
  }
  const status = pick(cell(kkTable, row, "Status"), KK_STATUSES);
  const statusDate = day(cell(kkTable, row, "Tanggal Status"));
  const notes = text(cell(kkTable, row, "Catatan"), 1000);
  if ("error" in status) {
    fail(check, "KK", line, "status", status.error);
  } else if (status.value) {
    card.status = status.value;
  }
  if ("error" in statusDate) {
    fail(check, "KK", line, "statusDate", statusDate.error);
  } else {
    card.statusDate = statusDate.value;
  }
  if ("error" in notes) {
    fail(check, "KK", line, "notes", notes.error);
  } else {
    card.notes = notes.value;
  }
}

function checkVehicleRow(check: Checked, carTable: Table, row: CellIn[], line: number) {
  if (row.every((c) => c === null)) {
    return;
  }
  const kkNumber = cell(carTable, row, "No. KK");
  const card = kkNumber === null ? undefined : check.cards.get(kkNumber);
  if (!card) {
    fail(check, "Kendaraan", line, "kkNumber", "a KK number from the Anggota sheet is required");
  }
  const rawPlate = cell(carTable, row, "Plat Nomor");
  // Compared by key, as the registry's unique index does: `B-1234-XYZ` is row 3's `b 1234 xyz`.
  const plate = rawPlate === null ? null : displayPlate(rawPlate);
  const key = plate === null ? null : plateKey(plate);
  if (plate === null || key === null) {
    fail(check, "Kendaraan", line, "plate", "not a vehicle plate (letters, digits, spaces, dashes)");
  } else if (check.seenPlates.has(key)) {
    fail(check, "Kendaraan", line, "plate", `the same plate as row ${check.seenPlates.get(key)}`);
  } else if (check.taken.plates.has(key)) {
    fail(check, "Kendaraan", line, "plate", "this plate is already registered");
  } else {
    check.seenPlates.set(key, line);
  }
  const kind = pick(cell(carTable, row, "Jenis"), VEHICLE_KINDS);
  if ("error" in kind || kind.value === null) {
    fail(check, "Kendaraan", line, "kind", `one of ${VEHICLE_KINDS.join(", ")}`);
  }
  const extra = {
    brand: text(cell(carTable, row, "Merek"), 40),
    model: text(cell(carTable, row, "Model"), 60),
    colour: text(cell(carTable, row, "Warna"), 30),
  };
  for (const [field, result] of Object.entries(extra)) {
    if ("error" in result) {
      fail(check, "Kendaraan", line, field, result.error);
    }
  }
  if (card && plate && "value" in kind) {
    check.cars.push({
      id: newId(),
      familyCardId: card.id,
      plate,
      plateKey: key,
      kind: kind.value,
      brand: "value" in extra.brand ? extra.brand.value : null,
      model: "value" in extra.model ? extra.model.value : null,
      colour: "value" in extra.colour ? extra.colour.value : null,
      updatedAt: check.now,
    });
  }
}

function checkUnitRow(check: Checked, unitTable: Table, row: CellIn[], line: number) {
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
    fail(check, "Unit", line, "occupancy", occupancy.error);
  }
  if ((latitude === null) !== (longitude === null)) {
    fail(check, "Unit", line, "latitude", "latitude and longitude go together");
  } else if (
    latitude !== null &&
    longitude !== null &&
    (!Number.isFinite(latitude) ||
      Math.abs(latitude) > 90 ||
      !Number.isFinite(longitude) ||
      Math.abs(longitude) > 180)
  ) {
    fail(check, "Unit", line, "latitude", "coordinates out of range");
  }
  const key = `${normaliseBlock(block)}\u0000${normaliseHouseNumber(number)}`;
  if (!check.taken.unitIds.has(key) && !check.newUnits.has(key)) {
    check.newUnits.set(key, {
      id: newId(),
      block: normaliseBlock(block),
      number: normaliseHouseNumber(number),
    });
  }
  check.unitDetails.set(key, {
    occupancy: "value" in occupancy ? occupancy.value : null,
    latitude,
    longitude,
  });
}
