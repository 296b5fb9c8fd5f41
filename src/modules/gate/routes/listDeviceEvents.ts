import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, listOf, tenantProblems } from "../../../core/http/openapi";
import { EventListQuery, GateEvent } from "../schemas";
import { listDeviceEvents } from "../service";

const schema = {
  tags: ["Gate devices"],
  summary: "List a gate device's events",
  description:
    "Admin only, with the guest book (`tamu`) switched on. The events a device sent, newest first, " +
    "each with what was done (the gate opened or not, and why), paged by `cursor`.",
  request: { params: IdParam, query: EventListQuery },
  responses: { 200: json(listOf(GateEvent)), ...tenantProblems },
};

export class ListDeviceEvents extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listDeviceEvents({ ctx: tenantCtx(c), id: params.id, input: query }));
  }
}
