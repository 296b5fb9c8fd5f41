import { maskNik } from "./families";
import type { corrections } from "./tables";

/** How a correction request is shown: corrections.ts (members' fields) and unit-requests.ts (a house). */

type CorrectionRow = typeof corrections.$inferSelect;

/** The house a `rumah` request asks for (its value is this JSON). */
export function houseOf(row: Pick<CorrectionRow, "field" | "value">) {
  if (row.field !== "rumah") {
    return null;
  }
  const { block, number } = JSON.parse(row.value) as { block: string; number: string };
  return { block, number };
}

export function present(row: CorrectionRow, memberName: string | null, whole: boolean) {
  const house = houseOf(row);
  return {
    id: row.id,
    userId: row.userId,
    unitId: row.unitId,
    memberId: row.memberId,
    memberName,
    field: row.field,
    value: house
      ? `Blok ${house.block} No. ${house.number}`
      : row.field === "nik" && !whole
        ? maskNik(row.value)
        : row.value,
    house,
    note: row.note,
    status: row.status,
    reason: row.reason,
    decidedAt: row.decidedAt,
    createdAt: row.createdAt,
  };
}
