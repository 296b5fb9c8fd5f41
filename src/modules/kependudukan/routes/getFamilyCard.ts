import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, tenantProblems } from "../../../core/http/openapi";
import { getFamilyCard } from "../families";
import { FamilyCardDetail } from "../schemas";

const schema = {
  tags: ["Kependudukan"],
  summary: "Get a family card",
  description:
    "Secretary and admin, with the registry (`warga`) switched on. One KK with its members and " +
    "vehicles; NIKs whole (the secretary and admin only). ETag and 304 for If-None-Match.",
  request: { params: IdParam },
  responses: { 200: json(FamilyCardDetail), ...tenantProblems },
};

export class GetFamilyCard extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getFamilyCard({ ctx: tenantCtx(c), id: params.id }));
  }
}
