import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { LoginResult, RefreshInput } from "../schemas";
import { refresh } from "../sessions";
import { answerSession, isWebClient, presentedRefreshToken, WebClientHeaders } from "../webClient";

export class Refresh extends Endpoint {
  override schema = {
    tags: ["Auth"],
    summary: "Rotate the refresh token and get a new access token (a reused token ends the session)",
    description:
      "API clients send `refreshToken` in the body and get the next one in the answer. The web app sends " +
      "`X-Warga-Client: web` and no token: its refresh token is the HttpOnly cookie, rotated in the answer.",
    security: [],
    request: {
      headers: WebClientHeaders,
      body: { content: { "application/json": { schema: RefreshInput } } },
    },
    responses: { 200: json(LoginResult), ...problems(400, 401, 403) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const web = isWebClient(c);
    const refreshToken = presentedRefreshToken(c, web, body);
    return answerSession(c, web, await refresh({ ctx: platformCtx(c), input: { refreshToken } }));
  }
}
