import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { ChildList } from "../schemas";
import { listChildren } from "../service";

export class ListChildren extends Endpoint {
  override schema = {
    tags: ["Tenant hierarchy"],
    summary: "The RT tenants linked to this RW, and apart from them those asked that have not answered",
    responses: { 200: json(ChildList), ...problems(401, 403) },
  };

  override async handle(c: Context<HonoEnv>) {
    return c.json(await listChildren({ ctx: tenantCtx(c) }));
  }
}
