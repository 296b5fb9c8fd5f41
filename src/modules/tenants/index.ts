import { ROLES, tenantAccess } from "../../core/http/access";
import { CRON } from "../../core/jobs";
import { defineModule } from "../../core/module";
import { closingJob } from "./closing";
import { TENANTS_ERROR_CODES } from "./errors";
import { CloseTenant } from "./routes/closeTenant";
import { CreateTenant } from "./routes/createTenant";
import { GetCommunityFeatures } from "./routes/getCommunityFeatures";
import { GetTenant } from "./routes/getTenant";
import { InviteAdmin } from "./routes/inviteAdmin";
import { ListTenants } from "./routes/listTenants";
import { UpdateTenant } from "./routes/updateTenant";

const platform = { scope: "platform" } as const;

export const tenantsModule = defineModule({
  name: "tenants",
  errorCodes: TENANTS_ERROR_CODES,
  routes: [
    { method: "post", path: "/api/platform/tenants", endpoint: CreateTenant, access: platform },
    { method: "get", path: "/api/platform/tenants", endpoint: ListTenants, access: platform },
    // Issue 47: one community's page in the operator's console.
    { method: "get", path: "/api/platform/tenants/:id", endpoint: GetTenant, access: platform },
    { method: "patch", path: "/api/platform/tenants/:id", endpoint: UpdateTenant, access: platform },
    { method: "delete", path: "/api/platform/tenants/:id", endpoint: CloseTenant, access: platform },
    {
      method: "post",
      path: "/api/platform/tenants/:id/admin-invitations",
      endpoint: InviteAdmin,
      access: platform,
    },
    // Issue 46: the community's admin reads its own flags (the console's settings); only operators switch them.
    {
      method: "get",
      path: "/api/tenant/features",
      endpoint: GetCommunityFeatures,
      access: tenantAccess(ROLES.ADMIN),
    },
  ],
  // A closed community still holding its slot (its isolate died, or the wipe failed) is finished here.
  jobs: [{ name: "tenants.closing", cron: CRON.HOURLY, run: closingJob }],
});
