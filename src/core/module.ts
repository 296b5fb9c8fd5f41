import type { RouteDef } from "./http/access";
import type { Indicator } from "./indicators";
import type { Job } from "./jobs";

/** What a module hands the composition root: its routes (with their access rules) and indicators. */
export interface AppModule<R extends readonly RouteDef[] = readonly RouteDef[]> {
  name: string;
  routes: R;
  indicators?: readonly Indicator[];
  /** Whether every route checks that the caller's sign-in is still live (identity), or only staff writes. */
  liveSession?: "always" | "staff-writes";
  /** Scheduled work (Cron Triggers); see core/jobs.ts. */
  jobs?: readonly Job[];
}

/**
 * Keeps each route's literal path, method and endpoint type, so `AppType` (core/http/client-types.ts)
 * can describe every route to `hc` from hono/client.
 */
export function defineModule<const R extends readonly RouteDef[]>(module: AppModule<R>): AppModule<R> {
  return module;
}
