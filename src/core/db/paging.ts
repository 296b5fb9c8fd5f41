import { and, eq, gt, gte, lt, or, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import { Invalid } from "../errors";
import { jakartaDayRange } from "../time";

/** The longest cursor accepted; `ListQuery` states the same bound in the schema (core/http/cursor.ts). */
export const MAX_CURSOR_LENGTH = 512;

/** 400 `invalid_cursor`: a cursor no list gave (core/http/cursor.ts opens the wire form). */
export function invalidCursor(): Invalid {
  return new Invalid("invalid_cursor", "The cursor is not one this list gave.", [
    { field: "cursor", message: "unknown cursor" },
  ]);
}

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
 * The query every list takes: `?limit=` (1–100, default 20) and `?cursor=` (the `nextCursor` of the
 * previous page). A module's list adds its own filters with `ListQuery.extend({ … })`.
 *
 * On the wire the cursor is opaque and bound to the list that gave it (core/http/cursor.ts, ADR 0040):
 * the endpoint opens it before the verb runs, so a verb's `input.cursor` is the inner key its own
 * `keysetPage`/`keysetPageBy` wrote (the last id, or `{value}~{id}`).
 */
export const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z
    .string()
    .max(MAX_CURSOR_LENGTH)
    .optional()
    .describe(
      "The `nextCursor` of the previous page of this same list, passed back unchanged. Cursors are opaque: a cursor this list did not give (mangled, truncated, another list's) is 400 `invalid_cursor`; start again without one.",
    ),
});
export type ListQuery = z.infer<typeof ListQuery>;

/** `id < cursor` for a newest-first list, `id > cursor` for an oldest-first one (ids are ULIDs). */
export function afterCursor(column: SQLiteColumn, cursor: string | undefined, order: "desc" | "asc"): SQL[] {
  if (!cursor) {
    return [];
  }
  return [order === "desc" ? lt(column, cursor) : gt(column, cursor)];
}

/**
 * Lists ordered by something other than the id (a date, a start time, a creation time) page by the
 * pair (that value, id), and their cursor is the last row's pair joined by `~`: `2026-11-03~01J…`.
 * Lists ordered by id alone keep the id itself as the cursor, the same format with one part. Neither
 * part may contain `~` (dates, ISO instants and ULIDs do not).
 */
export interface Keyset<T> {
  /** The column the list is ordered by first, and the id column that breaks ties. */
  columns: readonly [SQLiteColumn, SQLiteColumn];
  order: "asc" | "desc";
  /** The row's values of those two columns, as the cursor writes them. */
  key: (row: T) => readonly [string, string];
}

/** The page of `rows` (fetched with `limit + 1`, in the keyset's order) and the cursor after it. */
export function keysetPageBy<T>(
  rows: T[],
  limit: number,
  keyset: Keyset<T>,
): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? keyset.key(last).join("~") : null };
}

/**
 * The condition "after the cursor" in the keyset's order, or none without a cursor. A cursor this list
 * did not give is 400 `invalid_cursor`.
 */
export function afterKeyset<T>(keyset: Keyset<T>, cursor: string | undefined): SQL | undefined {
  if (!cursor) {
    return undefined;
  }
  const parts = cursor.split("~");
  const [value, id] = parts;
  if (parts.length !== 2 || !value || !id) {
    throw invalidCursor();
  }
  const [column, idColumn] = keyset.columns;
  const beyond = keyset.order === "desc" ? lt : gt;
  return or(beyond(column, value), and(eq(column, value), beyond(idColumn, id)));
}
