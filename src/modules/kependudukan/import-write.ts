import { rawAudit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { jsonInserts, type RawRow, rawD1 } from "../../core/db/raw";
import { registryConflict } from "./families";
import type { Checked } from "./import-validate";
import { familyCards, familyMembers, units, vehicles } from "./tables";

/**
 * Writes a checked upload: units, cards, members and vehicles in one batch, a few statements of JSON
 * rows each, with one audit record (counts only).
 */
export async function writeRegistry(ctx: TenantCtx, check: Checked) {
  const { cards, members, cars, newUnits, unitDetails, taken, now } = check;
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
      unitId: taken.unitIds.get(c.unitKey) ?? newUnits.get(c.unitKey)?.id,
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
  // The rows live on as the statements' JSON: let the objects go before the batch is sent (ADR 0037).
  members.length = 0;
  cars.length = 0;
  try {
    // One D1 batch, so one transaction: the whole file lands, or none of it.
    await d1.batch(statements);
  } catch (error) {
    // Someone registered the same NIK, KK number or plate between the check and the write.
    registryConflict(error);
  }
}
