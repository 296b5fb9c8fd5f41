import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { verifyMagicLink } from "../magicLink";
import { LoginResult, TokenInput } from "../schemas";
import { answerSession, isWebClient, WebClientHeaders } from "../webClient";

export class VerifyMagicLink extends Endpoint {
  override schema = {
    tags: ["Auth"],
    summary: "Exchange a sign-in link's token (single use, 15 minutes) for a session",
    security: [],
    request: { headers: WebClientHeaders, body: { content: { "application/json": { schema: TokenInput } } } },
    responses: { 200: json(LoginResult), ...problems(400, 401, 403, 429) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const web = isWebClient(c);
    return answerSession(c, web, await verifyMagicLink({ ctx: platformCtx(c), input: body }));
  }
}
