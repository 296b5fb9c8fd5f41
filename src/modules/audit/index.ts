import { ROLES, tenantAccess } from "../../core/http/access";
import { defineModule } from "../../core/module";
import { ListPlatformAudit } from "./routes/listPlatformAudit";
import { ListTenantAudit } from "./routes/listTenantAudit";

export const auditModule = defineModule({
  name: "audit",
  // How its tenant tables hold personal data (core/module.ts PersonalColumns; export and erasure).
  personalData: {
    audit_log: {
      subjects: ["actor_id"],
      personal: ["ip", "detail"],
      // The detail describes what the actor acted on (another family's plate, a resident's fields).
      aboutOthers: ["detail"],
      other: ["id", "actor_role", "action", "target_type", "target_id", "request_id", "created_at"],
    },
  },
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
