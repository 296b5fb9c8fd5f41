import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { LoginResult, SwitchTenantInput } from "../schemas";
import { switchTenant } from "../sessions";
import { answerSession, isWebClient, WebClientHeaders } from "../webClient";

export class SwitchTenant extends Endpoint {
  override schema = {
    tags: ["Auth"],
    summary: "Move to another of the caller's communities: ends this session, opens one there",
    request: {
      headers: WebClientHeaders,
      body: { content: { "application/json": { schema: SwitchTenantInput } } },
    },
    responses: { 200: json(LoginResult), ...problems(400, 401, 403) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const web = isWebClient(c);
    return answerSession(c, web, await switchTenant({ ctx: platformCtx(c), input: body }));
  }
}
