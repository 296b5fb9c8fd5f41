import { ROLES, tenantAccess } from "../../core/http/access";
import { defineModule } from "../../core/module";
import { RESIDENTS_ERROR_CODES } from "./errors";
import { DecideApplication } from "./routes/decideApplication";
import { ListApplications } from "./routes/listApplications";
import { ListResidents } from "./routes/listResidents";
import { ResetCredentials } from "./routes/resetCredentials";
import { SubmitApplication } from "./routes/submitApplication";

/** The registry's keepers (secretariat) decide who becomes a resident; every staff role may read the list. */
const registrars = tenantAccess(ROLES.SECRETARIAT, "warga");
const staff = tenantAccess(ROLES.STAFF, "warga");

export const residentsModule = defineModule({
  name: "residents",
  errorCodes: RESIDENTS_ERROR_CODES,
  routes: [
    {
      method: "post",
      path: "/api/public/tenants/:slug/applications",
      endpoint: SubmitApplication,
      access: { scope: "public-tenant", flag: "warga" },
    },
    {
      method: "get",
      path: "/api/applications",
      endpoint: ListApplications,
      access: registrars,
    },
    {
      method: "put",
      path: "/api/applications/:id",
      endpoint: DecideApplication,
      access: registrars,
    },
    {
      method: "get",
      path: "/api/residents",
      endpoint: ListResidents,
      access: staff,
    },
    {
      method: "post",
      path: "/api/residents/:id/credentials/reset",
      endpoint: ResetCredentials,
      access: registrars,
    },
  ],
});
