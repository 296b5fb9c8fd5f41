import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { listFamilyCards } from "../families";
import { FamilyCardListQuery, FamilyCardSummary } from "../schemas";

const schema = {
  tags: ["Kependudukan"],
  summary: "List family cards",
  description:
    "Secretary and admin, with the registry (`warga`) switched on. Family cards (KK) by unit, or by a " +
    "search of the head's name or the KK number, with NIKs masked, paged by `cursor`.",
  request: { query: FamilyCardListQuery },
  responses: { 200: json(listOf(FamilyCardSummary)), ...tenantProblems },
};

export class ListFamilyCards extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listFamilyCards({ ctx: tenantCtx(c), input: query }));
  }
}
