import { defineModule } from "../../core/module";
import { GetMe } from "./routes/getMe";
import { Login } from "./routes/login";
import { countResidents } from "./service";

export const identityModule = defineModule({
  name: "identity",
  routes: [
    { method: "post", path: "/api/auth/login", endpoint: Login, access: { scope: "public" } },
    { method: "get", path: "/api/user/me", endpoint: GetMe, access: { scope: "user" } },
  ],
  indicators: [
    {
      key: "totalResidents",
      label: "Total registered residents",
      compute: (ctx) => countResidents(ctx.env, ctx.tenant.id),
    },
  ],
});
