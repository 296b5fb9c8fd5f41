import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { userActor } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { Me } from "../schemas";
import { me } from "../service";

export class GetMe extends Endpoint {
  override schema = {
    tags: ["User"],
    summary: "The caller, the current tenant and role, and all memberships",
    responses: { 200: json(Me), ...problems(401, 404) },
  };

  override async handle(c: Context<HonoEnv>) {
    return c.json(await me({ env: c.env, actor: userActor(c) }));
  }
}
