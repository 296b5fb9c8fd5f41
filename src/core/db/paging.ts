import { gt, gte, lt, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import { jakartaDayRange } from "../time";

/**
 * One page of a keyset-paginated list: queries fetch `limit + 1` rows ordered by id, and the extra
 * row only says whether there is a next page (whose cursor is the last id shown).
 */
export function keysetPage<T extends { id: string }>(
  rows: T[],
  limit: number,
): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  return { items, nextCursor: rows.length > limit ? (items.at(-1)?.id ?? null) : null };
}

/** `from`/`to` calendar days (Asia/Jakarta, inclusive) as conditions on an ISO timestamp column. */
export function jakartaDayFilters(column: SQLiteColumn, from?: string, to?: string): SQL[] {
  const range = jakartaDayRange(from, to);
  return [...(range.gte ? [gte(column, range.gte)] : []), ...(range.lt ? [lt(column, range.lt)] : [])];
}

/**
 * The query every list takes: `?limit=` (1–100, default 20) and `?cursor=` (the last id of the previous
 * page). A module's list adds its own filters with `ListQuery.extend({ … })`.
 */
export const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(64).optional(),
});
export type ListQuery = z.infer<typeof ListQuery>;

/** `id < cursor` for a newest-first list, `id > cursor` for an oldest-first one (ids are ULIDs). */
export function afterCursor(column: SQLiteColumn, cursor: string | undefined, order: "desc" | "asc"): SQL[] {
  if (!cursor) {
    return [];
  }
  return [order === "desc" ? lt(column, cursor) : gt(column, cursor)];
}
