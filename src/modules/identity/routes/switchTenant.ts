import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { LoginResult, SwitchTenantInput } from "../schemas";
import { switchTenant } from "../sessions";
import { answerSession, isWebClient, WebClientHeaders } from "../webClient";

const schema = {
  tags: ["Auth"],
  summary: "Switch to another of the caller's communities",
  description:
    "Any signed-in user. Opens a session in the community named by `tenant` (a slug the caller is a " +
    "member of) and ends the current session, so its refresh token no longer works. Answers the same " +
    "shape as sign-in. 403 `no_membership` when the caller has no open membership there, 403 " +
    "`tenant_suspended` or `account_disabled`; 410 `tenant_closed` when that community has closed; 401 `session_ended` when the account no longer exists. " +
    "With `X-Warga-Client: web` (the first-party app, from its own origin: 403 `origin_refused` otherwise) the refresh token is not in the body but set as an HttpOnly cookie on the refresh and sign-out paths.",
  request: {
    headers: WebClientHeaders,
    body: { content: { "application/json": { schema: SwitchTenantInput } } },
  },
  responses: { 200: json(LoginResult), ...problems(400, 401, 403, 410) },
};

export class SwitchTenant extends Endpoint {
  /** The switch ends the old session: a repeat answers 409 idempotency_answer_unavailable, never the first tokens again. */
  static override credentialAnswer = "no-replay" as const;

  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const web = isWebClient(c);
    return answerSession(c, web, await switchTenant({ ctx: platformCtx(c), input: body }));
  }
}
