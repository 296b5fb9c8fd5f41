import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import type { Indicator } from "../../../core/indicators";
import { HierarchySummary } from "../schemas";
import { hierarchySummary } from "../service";

/** Built with the indicators of the modules mounted, as the staff dashboard is. */
export function getSummary(indicators: readonly Indicator[]) {
  const schema = {
    tags: ["Tenant hierarchy"],
    summary: "Get counts across the linked RT communities",
    description:
      "Admin of an RW community (403 `not_rw_tenant` otherwise). Per linked RT and in total: residents, " +
      "dues arrears, letters awaiting processing and open complaints. Counts only, never a name or a " +
      "record, and only of RTs whose admin accepted the link.",
    responses: { 200: json(HierarchySummary), ...problems(401, 403) },
  };
  return class GetHierarchySummary extends Endpoint {
    override schema = schema;

    override async handle(c: Context<RouteEnv>) {
      return c.json(await hierarchySummary({ ctx: tenantCtx(c), input: { indicators } }));
    }
  };
}
