import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { Device } from "../schemas";
import { listDevices } from "../service";

export class ListDevices extends Endpoint {
  override schema = {
    tags: ["Gate devices"],
    summary: "The community's gate devices (deleted ones are gone)",
    responses: { 200: json(listOf(Device)), ...tenantProblems },
  };

  override async handle(c: Context<HonoEnv>) {
    return c.json(await listDevices({ ctx: tenantCtx(c) }));
  }
}
