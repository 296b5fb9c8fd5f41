import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import type { Indicator } from "../../../core/indicators";
import { HierarchySummary } from "../schemas";
import { hierarchySummary } from "../service";

/** Built with the indicators of the modules mounted, as the staff dashboard is. */
export function getSummary(indicators: readonly Indicator[]) {
  return class GetHierarchySummary extends Endpoint {
    override schema = {
      tags: ["Tenant hierarchy"],
      summary:
        "Counts across the linked RTs: residents, dues arrears, letters awaiting processing, open complaints",
      responses: { 200: json(HierarchySummary), ...problems(401, 403) },
    };

    override async handle(c: Context<HonoEnv>) {
      return c.json(await hierarchySummary({ ctx: tenantCtx(c), input: { indicators } }));
    }
  };
}
