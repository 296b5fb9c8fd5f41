import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { Statistik } from "../schemas";
import { registryStatistics } from "../statistik";

const schema = {
  tags: ["Kependudukan"],
  summary: "Get registry statistics",
  description:
    "Secretary and admin, with the registry (`warga`) switched on. The registry in numbers: totals of " +
    "units, cards and people, and counts per block, sex, five-year age band, religion, residence " +
    "status and living status.",
  responses: { 200: json(Statistik), ...problems(401, 403) },
};

export class GetStatistik extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    return c.json(await registryStatistics({ ctx: tenantCtx(c) }));
  }
}
