import { defineModule } from "../../core/module";
import { CreateTenant } from "./routes/createTenant";
import { ListTenants } from "./routes/listTenants";
import { UpdateTenant } from "./routes/updateTenant";

const platform = { scope: "platform" } as const;

export const tenantsModule = defineModule({
  name: "tenants",
  routes: [
    { method: "post", path: "/api/platform/tenants", endpoint: CreateTenant, access: platform },
    { method: "get", path: "/api/platform/tenants", endpoint: ListTenants, access: platform },
    { method: "patch", path: "/api/platform/tenants/:id", endpoint: UpdateTenant, access: platform },
  ],
});
