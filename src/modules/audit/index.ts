import { ROLES, tenantAccess } from "../../core/http/access";
import { defineModule } from "../../core/module";
import { auditPersonalData } from "./manifest";
import { ListPlatformAudit } from "./routes/listPlatformAudit";
import { ListTenantAudit } from "./routes/listTenantAudit";

export const auditModule = defineModule({
  name: "audit",
  personalData: auditPersonalData,
  routes: [
    {
      method: "get",
      path: "/api/audit",
      endpoint: ListTenantAudit,
      access: tenantAccess(ROLES.ADMIN),
    },
    {
      method: "get",
      path: "/api/platform/audit",
      endpoint: ListPlatformAudit,
      access: { scope: "platform" },
    },
  ],
});
