import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { exchangeOAuthCode } from "../oauth/flow";
import { ExchangeInput, LoginResult } from "../schemas";
import { answerSession, isWebClient, WebClientHeaders } from "../webClient";

export class ExchangeOAuthCode extends Endpoint {
  override schema = {
    tags: ["Auth"],
    summary: "Turn the one-time code from the OAuth callback into a session",
    security: [],
    request: {
      headers: WebClientHeaders,
      body: { content: { "application/json": { schema: ExchangeInput } } },
    },
    responses: { 200: json(LoginResult), ...problems(400, 401, 403, 429) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const web = isWebClient(c);
    return answerSession(c, web, await exchangeOAuthCode({ ctx: platformCtx(c), input: body }));
  }
}
