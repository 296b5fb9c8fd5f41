import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { CreateSuggestionInput, SuggestionReceipt } from "../schemas";
import { createSuggestion } from "../suggestions";

const schema = {
  tags: ["Saran"],
  summary: "Send a suggestion",
  description:
    "Residents only. Sends a suggestion to the community's staff. An anonymous suggestion keeps no " +
    "link to its sender, so not even staff or the database can tell who sent it. At most 20 " +
    "suggestions per member per day (429 `rate_limited`).",
  request: { body: { content: { "application/json": { schema: CreateSuggestionInput } } } },
  responses: { 201: json(SuggestionReceipt, "Created"), ...problems(400, 401, 403, 429) },
};

export class CreateSuggestion extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createSuggestion({ ctx: tenantCtx(c), input: body }), 201);
  }
}
