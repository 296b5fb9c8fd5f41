import { OpenAPIRoute } from "chanfana";
import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { json, problems } from "../../../core/http/openapi";
import { LoginInput, LoginResult } from "../schemas";
import { login } from "../service";

export class Login extends OpenAPIRoute {
  override schema = {
    tags: ["Auth"],
    summary: "Sign in with email and password",
    security: [],
    request: { body: { content: { "application/json": { schema: LoginInput } } } },
    responses: { 200: json(LoginResult), ...problems(400, 401, 403, 429) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await login({ env: c.env, config: c.get("config"), input: body }));
  }
}
