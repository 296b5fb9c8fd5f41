import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { deferFor } from "../background";
import { LoginInput, LoginResult } from "../schemas";
import { login } from "../sessions";
import { answerSession, isWebClient, WebClientHeaders } from "../webClient";

const schema = {
  tags: ["Auth"],
  summary: "Sign in with a password",
  description:
    "Public. Takes an email or a WhatsApp number with the password, and optionally the `tenant` slug " +
    "to sign in to; without one the session opens in the caller's first community that is not " +
    "suspended, and an operator gets a platform session. Answers an access token (`expiresIn` " +
    "seconds) and a refresh token (30 days). An unknown account and a wrong password both answer 401 " +
    "`invalid_credentials`; 403 `account_disabled`, `no_membership` (no open membership, or none in " +
    "the named community) or `tenant_suspended`; 410 `tenant_closed` when the named community, or every " +
    "community of the account, has closed (a member of another open community lands there). Failed attempts are limited per address and per " +
    "account (429 `rate_limited` with Retry-After), and the owner is emailed when their account is " +
    "being guessed. " +
    "With `X-Warga-Client: web` (the first-party app, from its own origin: 403 `origin_refused` otherwise) the refresh token is not in the body but set as an HttpOnly cookie on the refresh and sign-out paths.",
  security: [],
  request: { headers: WebClientHeaders, body: { content: { "application/json": { schema: LoginInput } } } },
  responses: { 200: json(LoginResult), ...problems(400, 401, 403, 410, 429) },
};

export class Login extends Endpoint {
  /** A public sign-in: each call issues fresh tokens and changes nothing twice (no key is kept for public callers). */
  static override credentialAnswer = "rerun" as const;

  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const web = isWebClient(c);
    return answerSession(c, web, await login({ ctx: platformCtx(c), input: body, defer: deferFor(c) }));
  }
}
