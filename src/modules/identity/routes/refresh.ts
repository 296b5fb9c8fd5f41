import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { LoginResult, RefreshInput } from "../schemas";
import { refresh } from "../sessions";
import { answerSession, isWebClient, presentedRefreshToken, WebClientHeaders } from "../webClient";

const schema = {
  tags: ["Auth"],
  summary: "Rotate a refresh token",
  description:
    "Public: the refresh token is the credential. Spends it and answers a new access token and a new " +
    "refresh token of the same session; the member's duties and community are read again, so a change " +
    "of duties takes effect here. Presenting a token that was already spent ends the whole session " +
    "(401 `refresh_token_reused`): whoever holds a copy must sign in again. 401 " +
    "`invalid_refresh_token` for an unknown, expired or revoked token, 401 `session_ended` when the " +
    "membership or the account is gone, 403 `tenant_suspended` when the community is suspended. " +
    "With `X-Warga-Client: web` (the first-party app, from its own origin: 403 `origin_refused` otherwise) the body carries no token: the refresh token is read from its HttpOnly cookie and the next one set there.",
  security: [],
  request: {
    headers: WebClientHeaders,
    body: { content: { "application/json": { schema: RefreshInput } } },
  },
  responses: { 200: json(LoginResult), ...problems(400, 401, 403) },
};

export class Refresh extends Endpoint {
  /** Public: a repeat with the same refresh token meets its rotation, never an old answer. */
  static override credentialAnswer = "rerun" as const;

  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const web = isWebClient(c);
    const refreshToken = presentedRefreshToken(c, web, body);
    return answerSession(c, web, await refresh({ ctx: platformCtx(c), input: { refreshToken } }));
  }
}
