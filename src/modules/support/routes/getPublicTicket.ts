import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { getPublicTicket } from "../public";
import { PublicThread, ReplyTokenParam } from "../schemas";

const schema = {
  tags: ["Support (public)"],
  summary: "Get the ticket a reply token opens",
  description:
    "Public, no sign-in: the reply token from the ticket's emails is the credential (not logged, not " +
    "cached). The ticket's thread as its submitter sees it. 404 for an unknown token; 429 " +
    "`rate_limited` per address.",
  security: [],
  request: { params: ReplyTokenParam },
  responses: { 200: json(PublicThread), ...problems(404, 429) },
};

export class GetPublicTicket extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getPublicTicket({ ctx: platformCtx(c), input: { token: params.reply_token } }));
  }
}
