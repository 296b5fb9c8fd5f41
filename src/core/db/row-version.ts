import { sql } from "drizzle-orm";
import { check, integer, sqliteTable } from "drizzle-orm/sqlite-core";

/** The SQL name of the column below, the same in every versioned table. */
export const ROW_VERSION = "row_version";

/**
 * The row's version for conditional requests (ETag and If-Match, platform/conditional, ADR 0035):
 * 1 when inserted, one more on every UPDATE of the row, whoever writes it. The bump is the table's
 * `<table>_row_version` trigger (migrations/tenant/0015_row_versions.sql: `AFTER UPDATE … WHEN
 * NEW.row_version <= OLD.row_version … SET row_version = OLD.row_version + 1`), not the writers: a
 * drizzle update, a raw statement and an upsert all move it. A writer that sets the whole row from an
 * older read (an upsert of `{ ...loaded, ...change }`) writes back an older version; `<=` bumps that
 * too, so a version never goes back. Not the same as a module's own `version` or `revision` columns,
 * which count what the module decides to count. A new versioned table gets the column here and the
 * trigger, in the same words, appended to its generated migration (drizzle-kit does not write triggers).
 */
export function rowVersion() {
  return integer(ROW_VERSION).notNull().default(1);
}

/**
 * The If-Match guard's one row (platform/conditional, ADR 0035), in each database that holds
 * versioned tables: every tenant database and the platform database (memberships). A write under
 * `If-Match` starts its batch with `INSERT OR REPLACE` of `ok` = whether the row still has the version
 * the client named; the named CHECK fails the statement otherwise, and with it the whole batch (one D1
 * batch is one transaction). The constraint's name is what the error says, so the hook can tell it from
 * other failures.
 */
export function preconditionChecksTable() {
  return sqliteTable(
    "precondition_checks",
    {
      id: integer("id").primaryKey(),
      ok: integer("ok").notNull(),
    },
    (t) => [check("precondition_failed", sql`${t.ok} = 1`)],
  );
}
