import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { CreateSuggestionInput, SuggestionReceipt } from "../schemas";
import { createSuggestion } from "../suggestions";

export class CreateSuggestion extends Endpoint {
  override schema = {
    tags: ["Saran"],
    summary: "Send a suggestion; anonymous ones keep no link to the sender",
    request: { body: { content: { "application/json": { schema: CreateSuggestionInput } } } },
    responses: { 201: json(SuggestionReceipt, "Created"), ...problems(400, 401, 403, 429) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createSuggestion({ ctx: tenantCtx(c), input: body }), 201);
  }
}
