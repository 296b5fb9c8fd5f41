import { defineModule } from "../../core/module";
import { GetHealth } from "./routes/getHealth";

export const healthModule = defineModule({
  name: "health",
  routes: [{ method: "get", path: "/api/health", endpoint: GetHealth, access: { scope: "public" } }],
});
