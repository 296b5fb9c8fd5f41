import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { PlatformHealth } from "../schemas";
import { platformHealth } from "../service";

const schema = {
  tags: ["Platform: operations"],
  summary: "Get the platform's deep health",
  description:
    "Platform operators only. Every tenant slot's migration level and liveness, the notification " +
    "service's backlog, dead letters, last failures and delivery alerts (a message still retrying " +
    "after its second attempt, or failed, in the last hour makes the report `degraded`), and the " +
    "tenant cache TTL: what an operator checks before and after a deploy or an incident.",
  responses: { 200: json(PlatformHealth), ...problems(401, 403) },
};

export class GetPlatformHealth extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    return c.json(await platformHealth({ ctx: platformCtx(c) }));
  }
}
