import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { verifyMagicLink } from "../magicLink";
import { LoginResult, TokenInput } from "../schemas";
import { answerSession, isWebClient, WebClientHeaders } from "../webClient";

const schema = {
  tags: ["Auth"],
  summary: "Sign in with a one-time link's token",
  description:
    "Public: the token from the emailed link is the credential. Spends it (single use, 15 minutes) " +
    "and opens a session in the community the link was asked for, by the same rules as password " +
    "sign-in. 401 `token_invalid`, `token_expired` or `token_used`; 403 `account_disabled`, " +
    "`no_membership` or `tenant_suspended`; 410 `tenant_closed` when the community has closed; 429 `rate_limited` per address. " +
    "With `X-Warga-Client: web` (the first-party app, from its own origin: 403 `origin_refused` otherwise) the refresh token is not in the body but set as an HttpOnly cookie on the refresh and sign-out paths.",
  security: [],
  request: { headers: WebClientHeaders, body: { content: { "application/json": { schema: TokenInput } } } },
  responses: { 200: json(LoginResult), ...problems(400, 401, 403, 410, 429) },
};

export class VerifyMagicLink extends Endpoint {
  /** Public: the link is single-use, so a repeat is refused by the link itself, never answered from a store. */
  static override credentialAnswer = "rerun" as const;

  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const web = isWebClient(c);
    return answerSession(c, web, await verifyMagicLink({ ctx: platformCtx(c), input: body }));
  }
}
