import type { FactoryTable } from "../helpers/factories";
import { joinTables } from "../helpers/manifests";

/**
 * Every module's factories.ts (test/modules/<module>/factories.ts, and test/core/factories.ts for core's
 * own routes), loaded by path pattern for the isolation walk (test/core/isolation-walk.test.ts), which
 * fails when an id-bearing path of the route table has no factory in any of them.
 */
const files = import.meta.glob<{ FACTORIES: FactoryTable }>(["./*/factories.ts", "../core/factories.ts"], {
  eager: true,
});

/** The factory of each id-bearing route path, from every module's factories.ts. */
export const FACTORIES: FactoryTable = joinTables(
  Object.fromEntries(Object.entries(files).map(([file, m]) => [file, m.FACTORIES])),
);
