import { ROLES, tenantAccess } from "../../core/http/access";
import type { Indicator } from "../../core/indicators";
import { defineModule } from "../../core/module";
import { getOperasional } from "./routes/getOperasional";

export function statistikModule(indicators: readonly Indicator[]) {
  return defineModule({
    name: "statistik",
    routes: [
      {
        method: "get",
        path: "/api/statistik/operasional",
        endpoint: getOperasional(indicators),
        access: tenantAccess(ROLES.STAFF),
      },
    ],
  });
}
