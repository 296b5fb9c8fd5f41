import { type SQL, type SQLWrapper, sql } from "drizzle-orm";

/**
 * `column IN (values)` with the values as one JSON parameter, however many: D1 binds at most 100
 * parameters a statement, and each value is still looked up on the column's index.
 */
export const inList = (column: SQLWrapper, values: readonly string[]): SQL =>
  sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(values)}))`;

/** `column NOT IN (values)`, the values as one JSON parameter (`inList`). */
export const notInList = (column: SQLWrapper, values: readonly string[]): SQL =>
  sql`${column} NOT IN (SELECT value FROM json_each(${JSON.stringify(values)}))`;
