import type { TenantCtx } from "../../core/context";
import type { Table } from "./import-parse";
import { checkOtherSheets } from "./import-sheets";
import { checkMembers, newCheck, type Taken } from "./import-validate";
import { writeRegistry } from "./import-write";
import { familyCards, familyMembers, units, vehicles } from "./tables";

/**
 * The registry as a spreadsheet and back. The export (`exchange-export.ts`) writes four sheets with
 * Indonesian headers; the import reads the same layout (the `Anggota` sheet, or a CSV of it, plus
 * optional `KK`, `Kendaraan` and `Unit` sheets: `import-parse.ts`, row by row as the sheet inflates,
 * ADR 0037), checks every row as it is read (`import-validate.ts`, `import-sheets.ts`) and writes all
 * of it in one batch, or nothing (`import-write.ts`).
 */

export { exportRegistry } from "./exchange-export";
export { type RowError, readRegistryFile } from "./import-parse";

/** The NIKs, KK numbers and plates the tenant holds already, and its houses by block and number. */
async function loadTaken(ctx: TenantCtx): Promise<Taken> {
  const [existingNiks, existingCards, existingPlates, existingUnits] = await ctx.db.batch([
    ctx.db.select({ v: familyMembers.nik }).from(familyMembers),
    ctx.db.select({ v: familyCards.kkNumber }).from(familyCards),
    ctx.db.select({ v: vehicles.plateKey }).from(vehicles),
    ctx.db.select({ id: units.id, block: units.block, number: units.number }).from(units),
  ]);
  return {
    niks: new Set(existingNiks.map((r) => r.v)),
    cards: new Set(existingCards.map((r) => r.v)),
    // By key (ADR 0047): a file's `B-1234-XYZ` is the registry's `B 1234 XYZ`.
    plates: new Set(existingPlates.flatMap((r) => (r.v === null ? [] : [r.v]))),
    unitIds: new Map(existingUnits.map((u) => [`${u.block}\u0000${u.number}`, u.id])),
  };
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
  const taken = await loadTaken(ctx);
  const now = ctx.now().toISOString();
  const check = newCheck(taken, now);
  const memberRows = checkMembers(check, tables);
  checkOtherSheets(check, tables);
  const { errors } = check;
  const report = {
    dryRun,
    ok: errors.length === 0,
    rows: memberRows,
    families: check.cards.size,
    members: check.members.length,
    vehicles: check.cars.length,
    units: check.newUnits.size,
    written: false,
    errors,
  };
  if (dryRun || errors.length > 0) {
    return report;
  }
  await writeRegistry(ctx, check);
  return { ...report, written: true };
}
