import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { Suggestion, SuggestionListQuery } from "../schemas";
import { listSuggestions } from "../suggestions";

const schema = {
  tags: ["Saran"],
  summary: "List suggestions for staff",
  description:
    "Community staff (sekretaris, bendahara, admin). Every suggestion, newest first, with its sender " +
    "unless anonymous; `unread=true` lists only those no staff member has marked read. Paged by " +
    "`cursor`.",
  request: { query: SuggestionListQuery },
  responses: { 200: json(listOf(Suggestion)), ...tenantProblems },
};

export class ListSuggestions extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listSuggestions({ ctx: tenantCtx(c), input: query }));
  }
}
