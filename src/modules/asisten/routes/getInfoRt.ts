import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { InfoRt } from "../schemas";
import { getInfoRt } from "../service";

const schema = {
  tags: ["Asisten"],
  summary: "Get the community information the assistant tells",
  description:
    "Members. The rules, service hours and agenda notes the secretary and admin wrote for the " +
    "assistant to tell residents. ETag and 304 for If-None-Match.",
  responses: { 200: json(InfoRt), ...problems(401, 403) },
};

export class GetInfoRt extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    return c.json(await getInfoRt({ ctx: tenantCtx(c) }));
  }
}
