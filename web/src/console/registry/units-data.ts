import { api } from "../../api/client";
import type { Page } from "../../ui/states";
import { BASE, type Unit } from "./types";

/** Every house of the community (100 a page; an RT has at most a few hundred), for a choice of house. */
export async function allUnits(): Promise<Unit[]> {
  const out: Unit[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    const answer = await api.get<Page<Unit>>(`${BASE}/units`, { query: { limit: 100, cursor } });
    out.push(...answer.items);
    if (!answer.nextCursor) {
      break;
    }
    cursor = answer.nextCursor;
  }
  return out.sort(
    (a, b) => a.block.localeCompare(b.block) || a.number.localeCompare(b.number, "id", { numeric: true }),
  );
}
