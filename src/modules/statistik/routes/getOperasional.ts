import type { Context } from "hono";
import { z } from "zod";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, tenantProblems } from "../../../core/http/openapi";
import type { Indicator } from "../../../core/indicators";
import { computeIndicators } from "../service";

export const Operasional = z
  .object({
    indicators: z.array(z.object({ key: z.string(), label: z.string(), value: z.number().int() })),
    generatedAt: z.string(),
  })
  .openapi("OperationalIndicators");

/** Built per app so it sees exactly the indicators of the modules mounted. */
export function getOperasional(indicators: readonly Indicator[]) {
  const schema = {
    tags: ["Statistik"],
    summary: "Get the staff dashboard indicators",
    description:
      "Community staff (sekretaris, bendahara, admin). The dashboard's numbers from every module " +
      "switched on for this community (guests awaiting approval, letters to process, open complaints, " +
      "active polls, dues arrears and the like); a module switched off contributes nothing.",
    responses: { 200: json(Operasional), ...tenantProblems },
  };
  return class GetOperasional extends Endpoint {
    override schema = schema;

    override async handle(c: Context<RouteEnv>) {
      return c.json(await computeIndicators({ ctx: tenantCtx(c), input: { indicators } }));
    }
  };
}
