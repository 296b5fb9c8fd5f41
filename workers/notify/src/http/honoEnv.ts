import type { AppEnv, Config } from "../env";

export interface HonoEnv {
  Bindings: AppEnv;
  Variables: { config: Config; requestId: string };
}
