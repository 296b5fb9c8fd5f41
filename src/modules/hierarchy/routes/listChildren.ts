import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { ChildList } from "../schemas";
import { listChildren } from "../service";

const schema = {
  tags: ["Tenant hierarchy"],
  summary: "List the RT communities linked to this RW",
  description:
    "Admin of an RW community (an RT's admin gets 403 `not_rw_tenant`). The RTs linked to this RW " +
    "(linked means the RT's admin accepted), and apart from them the RTs it asked that have not " +
    "answered yet, by slug and name only.",
  responses: { 200: json(ChildList), ...problems(401, 403) },
};

export class ListChildren extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    return c.json(await listChildren({ ctx: tenantCtx(c) }));
  }
}
