import { defineModule, type PersonalColumns } from "../../core/module";
import { usePersonalDeclarations } from "./erasure";
import { ErasePerson } from "./routes/erasePerson";
import { GetPlatformHealth } from "./routes/getPlatformHealth";

const platform = { scope: "platform" } as const;

/**
 * Operability for platform operators: deep health (docs/operations.md "What to watch") and erasure of a
 * person's data from a tenant, driven by every module's `personalData` declaration.
 */
export function platformOpsModule(declarations: readonly (readonly [string, PersonalColumns])[]) {
  usePersonalDeclarations(declarations);
  return defineModule({
    name: "platform-ops",
    routes: [
      { method: "get", path: "/api/platform/health", endpoint: GetPlatformHealth, access: platform },
      { method: "post", path: "/api/platform/tenants/:id/erasures", endpoint: ErasePerson, access: platform },
    ],
  });
}
