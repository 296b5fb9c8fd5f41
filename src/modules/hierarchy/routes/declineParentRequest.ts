import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { problems } from "../../../core/http/openapi";
import { declineParentRequest } from "../links";

const schema = {
  tags: ["Tenant hierarchy"],
  summary: "Decline the RW's link request",
  description:
    "Admin of an RT community. Declines the waiting request: nothing is linked, and the RW may ask " +
    "again only after 7 days. 404 `no_link_request` when no request waits.",
  responses: { 204: { description: "Declined" }, ...problems(401, 403, 404) },
};

export class DeclineParentRequest extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    await declineParentRequest({ ctx: tenantCtx(c) });
    return c.body(null, 204);
  }
}
