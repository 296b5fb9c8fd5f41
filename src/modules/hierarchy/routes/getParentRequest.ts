import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { parentRequest } from "../links";
import { ParentRequest } from "../schemas";

export class GetParentRequest extends Endpoint {
  override schema = {
    tags: ["Tenant hierarchy"],
    summary: "The RW asking to link this RT, awaiting its admin's answer",
    responses: { 200: json(ParentRequest), ...problems(401, 403, 404) },
  };

  override async handle(c: Context<HonoEnv>) {
    return c.json(await parentRequest({ ctx: tenantCtx(c) }));
  }
}
