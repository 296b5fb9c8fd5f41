import { ROLES, tenantAccess } from "../../core/http/access";
import type { Indicator } from "../../core/indicators";
import { defineModule } from "../../core/module";
import { HIERARCHY_ERROR_CODES } from "./errors";
import { AcceptParentRequest } from "./routes/acceptParentRequest";
import { DeclineParentRequest } from "./routes/declineParentRequest";
import { GetParentRequest } from "./routes/getParentRequest";
import { getSummary } from "./routes/getSummary";
import { LinkChild } from "./routes/linkChild";
import { ListChildren } from "./routes/listChildren";
import { UnlinkChild } from "./routes/unlinkChild";

export { feedsRwFigures, keepFiguresAfterWrite } from "./figures";

/**
 * The RW hierarchy (spec "Tenant hierarchy"; issues 13 and 27): the RW head is the admin of an RW
 * tenant, and asks an RT to join; the RT's admin accepts or declines. The role line lets every admin
 * in; the verbs refuse an RT's admin on the RW's routes (403 `not_rw_tenant`) and an RW's admin on the
 * RT's answers (403 `not_rt_tenant`). No feature flag: the spec's flags name optional modules, and
 * linking is part of what an RW is.
 */
const admin = tenantAccess(ROLES.ADMIN);

export function hierarchyModule(indicators: readonly Indicator[]) {
  return defineModule({
    name: "hierarchy",
    errorCodes: HIERARCHY_ERROR_CODES,
    routes: [
      { method: "get", path: "/api/tenant-hierarchy/children", endpoint: ListChildren, access: admin },
      {
        method: "get",
        path: "/api/tenant-hierarchy/summary",
        endpoint: getSummary(indicators),
        access: admin,
      },
      { method: "post", path: "/api/tenant-hierarchy/link-child", endpoint: LinkChild, access: admin },
      {
        method: "delete",
        path: "/api/tenant-hierarchy/link-child/:slug",
        endpoint: UnlinkChild,
        access: admin,
      },
      {
        method: "get",
        path: "/api/tenant-hierarchy/parent-request",
        endpoint: GetParentRequest,
        access: admin,
      },
      {
        method: "post",
        path: "/api/tenant-hierarchy/parent-request/accept",
        endpoint: AcceptParentRequest,
        access: admin,
      },
      {
        method: "post",
        path: "/api/tenant-hierarchy/parent-request/decline",
        endpoint: DeclineParentRequest,
        access: admin,
      },
    ],
  });
}
