import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { exchangeOAuthCode } from "../oauth/flow";
import { ExchangeInput, LoginResult } from "../schemas";
import { answerSession, isWebClient, WebClientHeaders } from "../webClient";

const schema = {
  tags: ["Auth"],
  summary: "Exchange an OpenID Connect sign-in code for a session",
  description:
    "Public: the one-time code from the callback redirect is the credential (single use, 2 minutes). " +
    "Opens a session by the same rules as password sign-in and answers the same shape. 401 " +
    "`token_invalid` for an unknown, used or expired code; 403 `account_disabled`, `no_membership` or " +
    "`tenant_suspended`; 410 `tenant_closed` when the community has closed; 429 `rate_limited` per address. " +
    "With `X-Warga-Client: web` (the first-party app, from its own origin: 403 `origin_refused` otherwise) the refresh token is not in the body but set as an HttpOnly cookie on the refresh and sign-out paths.",
  security: [],
  request: {
    headers: WebClientHeaders,
    body: { content: { "application/json": { schema: ExchangeInput } } },
  },
  responses: { 200: json(LoginResult), ...problems(400, 401, 403, 410, 429) },
};

export class ExchangeOAuthCode extends Endpoint {
  /** Public: the code is single-use, so a repeat is refused by the code itself, never answered from a store. */
  static override credentialAnswer = "rerun" as const;

  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const web = isWebClient(c);
    return answerSession(c, web, await exchangeOAuthCode({ ctx: platformCtx(c), input: body }));
  }
}
