import type { Access } from "../../core/http/access";
import { defineModule, type PersonalColumns } from "../../core/module";
import { usePersonalDeclarations } from "./dataExport";
import { GetDataExport } from "./routes/getDataExport";

const user = { scope: "user" } as const satisfies Access;

/**
 * A person's own data export (`GET /api/user/data-export`). Built by the composition root with every
 * module's `personalData` declaration, like erasure (platform-ops), so identity itself stays free of
 * the other modules.
 */
export function dataExportModule(declarations: readonly (readonly [string, PersonalColumns])[]) {
  usePersonalDeclarations(declarations);
  return defineModule({
    name: "data-export",
    // It discloses everything about the account: a signed-out token must stop at once.
    liveSession: "always",
    writesWhenInactive: true,
    routes: [{ method: "get", path: "/api/user/data-export", endpoint: GetDataExport, access: user }],
  });
}
