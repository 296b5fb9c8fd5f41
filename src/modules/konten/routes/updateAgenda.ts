import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { updateAgenda } from "../agenda";
import { Agenda, UpdateAgendaInput } from "../schemas";

const schema = {
  tags: ["Agenda"],
  summary: "Update a community event",
  description:
    "Secretary and admin. Changes fields (partial); an event moved to another day is reminded again " +
    "for its new start. 400 `invalid_window`; 409 `conflict` when it changed meanwhile. Optional " +
    "If-Match (412 `precondition_failed`). Audited.",
  request: { params: IdParam, body: { content: { "application/json": { schema: UpdateAgendaInput } } } },
  responses: { 200: json(Agenda), ...problems(400, 401, 403, 404, 409) },
};

export class UpdateAgenda extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await updateAgenda({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
