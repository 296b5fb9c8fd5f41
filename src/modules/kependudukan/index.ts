import type { TenantRole } from "../../core/context";
import { defineModule } from "../../core/module";
import { CreateUnit } from "./routes/createUnit";
import { GetUnit } from "./routes/getUnit";
import { ListUnits } from "./routes/listUnits";

/** The spec: the registry is opened by the secretary and admin roles. */
const registry = { scope: "tenant", roles: ["sekretaris", "admin"] as TenantRole[], flag: "warga" } as const;

export const kependudukanModule = defineModule({
  name: "kependudukan",
  routes: [
    { method: "get", path: "/api/kependudukan/units", endpoint: ListUnits, access: registry },
    { method: "get", path: "/api/kependudukan/units/:id", endpoint: GetUnit, access: registry },
    { method: "post", path: "/api/kependudukan/units", endpoint: CreateUnit, access: registry },
  ],
});
