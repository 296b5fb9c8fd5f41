import { integer } from "drizzle-orm/sqlite-core";

/** The SQL name of the column below, the same in every versioned table. */
export const ROW_VERSION = "row_version";

/**
 * The row's version for conditional requests (ETag and If-Match, core/http/conditional.ts, ADR 0035):
 * 1 when inserted, one more on every UPDATE of the row, whoever writes it. The bump is the table's
 * `<table>_row_version` trigger (migrations/tenant/0015_row_versions.sql: `AFTER UPDATE … WHEN
 * NEW.row_version <= OLD.row_version … SET row_version = OLD.row_version + 1`), not the writers: a
 * drizzle update, a raw statement and an upsert all move it. A writer that sets the whole row from an
 * older read (an upsert of `{ ...loaded, ...change }`) writes back an older version; `<=` bumps that
 * too, so a version never goes back. Not the same as a module's own `version` or `revision` columns,
 * which count what the module decides to count.
 */
export function rowVersion() {
  return integer(ROW_VERSION).notNull().default(1);
}
