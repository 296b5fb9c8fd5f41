import { ROLES, tenantAccess } from "../../core/http/access";
import type { Indicator } from "../../core/indicators";
import { defineModule } from "../../core/module";
import { getSummary } from "./routes/getSummary";
import { LinkChild } from "./routes/linkChild";
import { ListChildren } from "./routes/listChildren";
import { UnlinkChild } from "./routes/unlinkChild";

/**
 * The RW hierarchy (spec "Tenant hierarchy"; issue 13): the RW head is the admin of an RW tenant. The
 * role line lets every admin in; the verbs refuse an RT's admin (403 `not_rw_tenant`). No feature flag:
 * the spec's flags name optional modules, and linking is part of what an RW is.
 */
const rwHead = tenantAccess(ROLES.ADMIN);

export function hierarchyModule(indicators: readonly Indicator[]) {
  return defineModule({
    name: "hierarchy",
    routes: [
      { method: "get", path: "/api/tenant-hierarchy/children", endpoint: ListChildren, access: rwHead },
      {
        method: "get",
        path: "/api/tenant-hierarchy/summary",
        endpoint: getSummary(indicators),
        access: rwHead,
      },
      { method: "post", path: "/api/tenant-hierarchy/link-child", endpoint: LinkChild, access: rwHead },
      {
        method: "delete",
        path: "/api/tenant-hierarchy/link-child/:slug",
        endpoint: UnlinkChild,
        access: rwHead,
      },
    ],
  });
}
