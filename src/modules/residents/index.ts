import type { TenantRole } from "../../core/context";
import { STAFF } from "../../core/http/access";
import { defineModule } from "../../core/module";
import { DecideApplication } from "./routes/decideApplication";
import { ListApplications } from "./routes/listApplications";
import { ListResidents } from "./routes/listResidents";
import { ResetCredentials } from "./routes/resetCredentials";
import { SubmitApplication } from "./routes/submitApplication";

const flag = "warga" as const;
/** The registry's keepers decide who becomes a resident; every staff role may read the list. */
const registrars: TenantRole[] = ["sekretaris", "admin"];

export const residentsModule = defineModule({
  name: "residents",
  routes: [
    {
      method: "post",
      path: "/api/public/tenants/:slug/applications",
      endpoint: SubmitApplication,
      access: { scope: "public" },
    },
    {
      method: "get",
      path: "/api/applications",
      endpoint: ListApplications,
      access: { scope: "tenant", roles: registrars, flag },
    },
    {
      method: "put",
      path: "/api/applications/:id",
      endpoint: DecideApplication,
      access: { scope: "tenant", roles: registrars, flag },
    },
    {
      method: "get",
      path: "/api/residents",
      endpoint: ListResidents,
      access: { scope: "tenant", roles: STAFF, flag },
    },
    {
      method: "post",
      path: "/api/residents/:id/credentials/reset",
      endpoint: ResetCredentials,
      access: { scope: "tenant", roles: registrars, flag },
    },
  ],
});
