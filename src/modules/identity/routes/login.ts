import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { deferFor } from "../background";
import { LoginInput, LoginResult } from "../schemas";
import { login } from "../sessions";
import { answerSession, isWebClient, WebClientHeaders } from "../webClient";

export class Login extends Endpoint {
  override schema = {
    tags: ["Auth"],
    summary: "Sign in with email (or WhatsApp number) and password",
    security: [],
    request: { headers: WebClientHeaders, body: { content: { "application/json": { schema: LoginInput } } } },
    responses: { 200: json(LoginResult), ...problems(400, 401, 403, 429) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const web = isWebClient(c);
    return answerSession(c, web, await login({ ctx: platformCtx(c), input: body, defer: deferFor(c) }));
  }
}
