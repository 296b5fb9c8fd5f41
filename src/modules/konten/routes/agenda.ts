import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, listOf, problems } from "../../../core/http/openapi";
import { createAgenda, deleteAgenda, getAgenda, listAgenda, updateAgenda } from "../agenda";
import { Agenda, AgendaListQuery, CreateAgendaInput, UpdateAgendaInput } from "../schemas";

export class ListAgenda extends Endpoint {
  override schema = {
    tags: ["Agenda"],
    summary: "Events soonest first: those not ended yet, or those starting on the Jakarta days from/to",
    request: { query: AgendaListQuery },
    responses: { 200: json(listOf(Agenda)), ...problems(400, 401, 403) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listAgenda({ ctx: tenantCtx(c), input: query }));
  }
}

export class CreateAgenda extends Endpoint {
  override schema = {
    tags: ["Agenda"],
    summary: "Add a community event; members get a push reminder at 18:00 WIB the evening before",
    request: { body: { content: { "application/json": { schema: CreateAgendaInput } } } },
    responses: { 201: json(Agenda, "Created"), ...problems(400, 401, 403) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createAgenda({ ctx: tenantCtx(c), input: body }), 201);
  }
}

export class GetAgenda extends Endpoint {
  override schema = {
    tags: ["Agenda"],
    summary: "One item",
    request: { params: IdParam },
    responses: { 200: json(Agenda), ...problems(400, 401, 403, 404) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getAgenda({ ctx: tenantCtx(c), id: params.id }));
  }
}

export class UpdateAgenda extends Endpoint {
  override schema = {
    tags: ["Agenda"],
    summary: "Change fields",
    request: { params: IdParam, body: { content: { "application/json": { schema: UpdateAgendaInput } } } },
    responses: { 200: json(Agenda), ...problems(400, 401, 403, 404, 409) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await updateAgenda({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}

export class DeleteAgenda extends Endpoint {
  override schema = {
    tags: ["Agenda"],
    summary: "Delete",
    request: { params: IdParam },
    responses: { 204: { description: "Deleted" }, ...problems(400, 401, 403, 404) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    await deleteAgenda({ ctx: tenantCtx(c), id: params.id });
    return c.body(null, 204);
  }
}
