import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { parentRequest } from "../links";
import { ParentRequest } from "../schemas";

const schema = {
  tags: ["Tenant hierarchy"],
  summary: "Get the RW's pending link request",
  description:
    "Admin of an RT community (403 `not_rt_tenant` otherwise). The RW asking to link this RT and when " +
    "it asked, for the admin to accept or decline; 404 `no_link_request` when no request waits.",
  responses: { 200: json(ParentRequest), ...problems(401, 403, 404) },
};

export class GetParentRequest extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    return c.json(await parentRequest({ ctx: tenantCtx(c) }));
  }
}
