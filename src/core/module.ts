import type { RouteDef } from "./http/access";
import type { Indicator } from "./indicators";

/** What a module hands the composition root: its routes (with their access rules) and indicators. */
export interface AppModule {
  name: string;
  routes: RouteDef[];
  indicators?: Indicator[];
}
