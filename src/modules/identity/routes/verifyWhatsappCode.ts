import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { LoginResult, WhatsappCodeVerifyInput } from "../schemas";
import { answerSession, isWebClient, WebClientHeaders } from "../webClient";
import { verifyWhatsappCode } from "../whatsappSignIn";

const schema = {
  tags: ["Auth"],
  summary: "Sign in with a WhatsApp code",
  description:
    "Public. Spends the code sent by `POST /api/auth/otp/request` and opens a session by the same " +
    "rules as password sign-in (optionally in the named `tenant`). An unknown number and a wrong, " +
    "expired or spent code all answer 401 `code_invalid`; 403 `account_disabled`, `no_membership` or " +
    "`tenant_suspended`; 410 `tenant_closed`; 429 `rate_limited` per number and per address. " +
    "With `X-Warga-Client: web` (the first-party app, from its own origin: 403 `origin_refused` otherwise) the refresh token is not in the body but set as an HttpOnly cookie on the refresh and sign-out paths.",
  security: [],
  request: {
    headers: WebClientHeaders,
    body: { content: { "application/json": { schema: WhatsappCodeVerifyInput } } },
  },
  responses: { 200: json(LoginResult), ...problems(400, 401, 403, 410, 429) },
};

export class VerifyWhatsappCode extends Endpoint {
  /** Public: the code is single-use, so a repeat is refused by the code itself, never answered from a store. */
  static override credentialAnswer = "rerun" as const;

  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return answerSession(c, isWebClient(c), await verifyWhatsappCode({ ctx: platformCtx(c), input: body }));
  }
}
