import { newId } from "../../core/ids";
import { normaliseBlock, normaliseHouseNumber } from "../../core/schemas";
import type { CellIn } from "../../core/spreadsheet";
import { cell, day, pick, type Table, text } from "./import-parse";
import { type Checked, fail } from "./import-validate";
import { normalisePlate } from "./schemas";
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
  const whatsapp = cell(kkTable, row, "WhatsApp");
  if (whatsapp !== null && !/^\+?\d{9,15}$/.test(whatsapp)) {
    fail(check, "KK", line, "headWhatsapp", "9 to 15 digits");
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
  const plate = rawPlate === null ? null : normalisePlate(rawPlate);
  if (plate === null || !/^[A-Z0-9 ]{1,15}$/.test(plate)) {
    fail(check, "Kendaraan", line, "plate", "letters, digits and spaces, at most 15");
  } else if (check.seenPlates.has(plate)) {
    fail(check, "Kendaraan", line, "plate", `the same plate as row ${check.seenPlates.get(plate)}`);
  } else if (check.taken.plates.has(plate)) {
    fail(check, "Kendaraan", line, "plate", "this plate is already registered");
  } else {
    check.seenPlates.set(plate, line);
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
