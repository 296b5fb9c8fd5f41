import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { updateDuesType } from "../iuran/jenis";
import { DuesType, DuesTypeInput } from "../schemas";

const schema = {
  tags: ["Iuran"],
  summary: "Update a dues type",
  description:
    "The treasurer and admin. Edits a dues type or switches it off (`active`); a new amount applies " +
    "from the next period and bills already issued keep theirs. 409 `invalid_transition` when the " +
    "basis of a type that has issued bills would change; 400 `unit_not_found`. Optional If-Match (412 " +
    "`precondition_failed`). Audited.",
  request: { params: IdParam, body: { content: { "application/json": { schema: DuesTypeInput } } } },
  responses: { 200: json(DuesType), ...problems(400, 401, 403, 404, 409) },
};

export class UpdateDuesType extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await updateDuesType({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
