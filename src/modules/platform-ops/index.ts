import { defineModule } from "../../core/module";
import { GetPlatformHealth } from "./routes/getPlatformHealth";

const platform = { scope: "platform" } as const;

/** Operability for platform operators: deep health (docs/operations.md "What to watch"). */
export const platformOpsModule = defineModule({
  name: "platform-ops",
  routes: [{ method: "get", path: "/api/platform/health", endpoint: GetPlatformHealth, access: platform }],
});
