import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, tenantProblems } from "../../../core/http/openapi";
import { Suggestion } from "../schemas";
import { markSuggestionRead } from "../suggestions";

const schema = {
  tags: ["Saran"],
  summary: "Mark a suggestion read",
  description:
    "Community staff (sekretaris, bendahara, admin). Marks the suggestion read, recording who read it " +
    "and when; marking it again changes nothing and answers the same (idempotent). 404 for an unknown " +
    "id.",
  request: { params: IdParam },
  responses: { 200: json(Suggestion), ...tenantProblems },
};

export class MarkSuggestionRead extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await markSuggestionRead({ ctx: tenantCtx(c), id: params.id }));
  }
}
