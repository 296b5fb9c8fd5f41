import { tenantPreconditionChecks } from "../../core/db/tenant-schema";
import { defineModule, personalColumns, personalData } from "../../core/module";
import type { VersionedResource } from "./resource";

/**
 * Conditional requests (ETag, If-None-Match, If-Match; ADR 0035), a platform feature (ADR 0051). Its
 * public face: what a module declares (`versioned`), the middleware src/app.ts runs on versioned
 * routes, and the write guard (exported for the test that moves a row between the check and the batch).
 */
export { conditionalHandlers } from "./middleware";
export {
  type RowOptions,
  type RowRef,
  type RowTarget,
  type VersionedHome,
  type VersionedResource,
  type VersionedTable,
  versioned,
} from "./resource";
export { VersionedWrite } from "./write-guard";

declare module "../../core/module" {
  interface ModuleDeclarations {
    /** Its single resources served with ETag and If-Match (src/platform/conditional, ADR 0035). */
    versioned?: readonly VersionedResource[];
  }
}

/**
 * Conditional requests as a module: no routes of its own (the middleware runs on the versioned routes,
 * src/app.ts); its one tenant table, the guard's row, holds no personal data and no text.
 */
export const conditionalModule = defineModule({
  name: "conditional",
  routes: [],
  personalData: personalData(personalColumns(tenantPreconditionChecks, {})),
});
