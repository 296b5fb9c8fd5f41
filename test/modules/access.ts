import type { AccessTable, Disagreements } from "../helpers/access";
import { joinTables } from "../helpers/manifests";

interface AccessFile {
  ACCESS: AccessTable;
  DISAGREEMENTS?: Disagreements;
}

/**
 * Every module's access.ts (test/modules/<module>/access.ts, and test/core/access.ts for core's own
 * routes), loaded by path pattern: the role walk and the isolation walk read the joined table, and
 * test/core/role-matrix.test.ts fails when a route of the route table has no line in any of them.
 */
const files = import.meta.glob<AccessFile>(["./*/access.ts", "../core/access.ts"], { eager: true });

/** Who may call each route, `METHOD /path` → expectation, from every module's access.ts. */
export const EXPECTED_ACCESS: AccessTable = joinTables(
  Object.fromEntries(Object.entries(files).map(([file, m]) => [file, m.ACCESS])),
);

/** The spec-versus-code disagreements every module's access.ts lists (usually none). */
export const KNOWN_DISAGREEMENTS: Disagreements = joinTables(
  Object.fromEntries(Object.entries(files).map(([file, m]) => [file, m.DISAGREEMENTS])),
);
