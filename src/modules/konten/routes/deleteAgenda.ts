import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, problems } from "../../../core/http/openapi";
import { deleteAgenda } from "../agenda";

const schema = {
  tags: ["Agenda"],
  summary: "Delete a community event",
  description:
    "Secretary and admin. Deletes the event; no reminder goes out for it afterwards. Optional " +
    "If-Match (412 `precondition_failed`). Audited.",
  request: { params: IdParam },
  responses: { 204: { description: "Deleted" }, ...problems(400, 401, 403, 404) },
};

export class DeleteAgenda extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    await deleteAgenda({ ctx: tenantCtx(c), id: params.id });
    return c.body(null, 204);
  }
}
