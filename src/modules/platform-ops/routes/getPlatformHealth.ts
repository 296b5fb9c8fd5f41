import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { PlatformHealth } from "../schemas";
import { platformHealth } from "../service";

export class GetPlatformHealth extends Endpoint {
  override schema = {
    tags: ["Platform: operations"],
    summary:
      "Deep health: every tenant slot's migration and liveness, the notification backlog, dead letters, last failures and delivery alerts, the tenant cache TTL",
    responses: { 200: json(PlatformHealth), ...problems(401, 403) },
  };

  override async handle(c: Context<HonoEnv>) {
    return c.json(await platformHealth({ ctx: platformCtx(c) }));
  }
}
