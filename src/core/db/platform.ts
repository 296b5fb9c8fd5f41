import { drizzle } from "drizzle-orm/d1";
import type { Bindings, PlatformDb } from "../env";
import * as schema from "./platform-schema";

export function platformDb(env: Bindings): PlatformDb {
  return drizzle(env.PLATFORM_DB, { schema });
}
