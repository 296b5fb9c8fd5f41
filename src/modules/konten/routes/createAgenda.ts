import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { createAgenda } from "../agenda";
import { Agenda, CreateAgendaInput } from "../schemas";

const schema = {
  tags: ["Agenda"],
  summary: "Add a community event",
  description:
    "Secretary and admin. An event with its title, place, start and end (400 `invalid_window` when " +
    "the end is not after the start). Every member gets a push reminder at 18:00 WIB the evening " +
    "before. Audited.",
  request: { body: { content: { "application/json": { schema: CreateAgendaInput } } } },
  responses: { 201: json(Agenda, "Created"), ...problems(400, 401, 403) },
};

export class CreateAgenda extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createAgenda({ ctx: tenantCtx(c), input: body }), 201);
  }
}
