import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { Device } from "../schemas";
import { listDevices } from "../service";

const schema = {
  tags: ["Gate devices"],
  summary: "List gate devices",
  description:
    "Admin only, with the guest book (`tamu`) switched on. The community's gate devices with their " +
    "name, adapter (generic or hikvision), whether they are active and when they were last heard " +
    "from; deleted devices are gone. Paged by `cursor`.",
  responses: { 200: json(listOf(Device)), ...tenantProblems },
};

export class ListDevices extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    return c.json(await listDevices({ ctx: tenantCtx(c) }));
  }
}
