import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { LoginResult, SignInCodeInput } from "../schemas";
import { redeemSignInCode } from "../signInCodeRedeem";
import { answerSession, isWebClient, WebClientHeaders } from "../webClient";

const schema = {
  tags: ["Auth"],
  summary: "Sign in with a code an officer handed over",
  description:
    "Public (issue 45). Spends the one-time code an admin issued with " +
    "`POST /api/members/{userId}/sign-in-code` (single use, 24 hours) and opens a session in that " +
    "community, the same answer as password sign-in; a pending invitation of the member there is " +
    "retired (they have joined). 401 `token_invalid`, `token_expired` or `token_used`; 403 " +
    "`account_disabled`, `no_membership` or `tenant_suspended`; 410 `tenant_closed`; 429 " +
    "`rate_limited` per address and per code. " +
    "With `X-Warga-Client: web` (the first-party app, from its own origin: 403 `origin_refused` otherwise) the refresh token is not in the body but set as an HttpOnly cookie on the refresh and sign-out paths.",
  security: [],
  request: {
    headers: WebClientHeaders,
    body: { content: { "application/json": { schema: SignInCodeInput } } },
  },
  responses: { 200: json(LoginResult), ...problems(400, 401, 403, 410, 429) },
};

export class RedeemSignInCode extends Endpoint {
  /** Public: the code is single-use, so a repeat is refused by the code itself, never answered from a store. */
  static override credentialAnswer = "rerun" as const;

  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return answerSession(c, isWebClient(c), await redeemSignInCode({ ctx: platformCtx(c), input: body }));
  }
}
