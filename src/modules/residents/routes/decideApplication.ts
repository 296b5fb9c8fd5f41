import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { decideApplication } from "../applications";
import { DecisionInput, DecisionResult } from "../schemas";

export class DecideApplication extends Endpoint {
  override schema = {
    tags: ["Residents"],
    summary: "Approve (creates the account, membership and invitation) or reject an application",
    request: { params: IdParam, body: { content: { "application/json": { schema: DecisionInput } } } },
    responses: { 200: json(DecisionResult), ...problems(400, 401, 403, 404, 409) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await decideApplication({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
