import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, tenantProblems } from "../../../core/http/openapi";
import { VisitorSettings } from "../schemas";
import { getVisitorSettings } from "../settings";

const schema = {
  tags: ["Tamu"],
  summary: "Get what this community asks of a guest at registration",
  description:
    "Both are required by default (the spec: given at registration); a community that does not record " +
    "them turns them off with PUT /api/visitor/settings. A resident's form reads this to mark the fields.",
  responses: { 200: json(VisitorSettings), ...tenantProblems },
};

export class GetVisitorSettings extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    return c.json(await getVisitorSettings({ ctx: tenantCtx(c) }));
  }
}
