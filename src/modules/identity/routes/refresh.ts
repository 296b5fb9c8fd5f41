import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { LoginResult, RefreshInput } from "../schemas";
import { refresh } from "../sessions";

export class Refresh extends Endpoint {
  override schema = {
    tags: ["Auth"],
    summary: "Rotate the refresh token and get a new access token (a reused token ends the session)",
    security: [],
    request: { body: { content: { "application/json": { schema: RefreshInput } } } },
    responses: { 200: json(LoginResult), ...problems(400, 401, 403) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await refresh({ ctx: platformCtx(c), input: body }));
  }
}
