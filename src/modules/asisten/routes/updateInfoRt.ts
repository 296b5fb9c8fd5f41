import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { InfoRt, InfoRtInput } from "../schemas";
import { updateInfoRt } from "../service";

const schema = {
  tags: ["Asisten"],
  summary: "Update the community information the assistant tells",
  description:
    "Secretary and admin. Writes the rules, service hours or agenda notes the assistant tells " +
    "residents; fields left out keep their value. Optional If-Match (412 `precondition_failed`). " +
    "Audited.",
  request: { body: { content: { "application/json": { schema: InfoRtInput } } } },
  responses: { 200: json(InfoRt), ...problems(400, 401, 403) },
};

export class UpdateInfoRt extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await updateInfoRt({ ctx: tenantCtx(c), input: body }));
  }
}
