import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { replyPublic } from "../public";
import { PublicThread, ReplyInput, ReplyTokenParam } from "../schemas";

const schema = {
  tags: ["Support (public)"],
  summary: "Reply to a ticket by its reply token",
  description:
    "Public, no sign-in: the reply token from the ticket's emails is the credential (not logged, not " +
    "cached). Adds the submitter's message (and an optional image uploaded with the token); a selesai " +
    "ticket is reopened to diproses and the operators are told. 400 `empty_reply` without text or " +
    "image, 400 `invalid_attachment`; 404 for an unknown token; 429 `rate_limited` per address and " +
    "per token.",
  security: [],
  request: { params: ReplyTokenParam, body: { content: { "application/json": { schema: ReplyInput } } } },
  responses: { 201: json(PublicThread, "Appended"), ...problems(400, 404, 429) },
};

export class ReplyPublicTicket extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(
      await replyPublic({ ctx: platformCtx(c), input: { ...body, token: params.reply_token } }),
      201,
    );
  }
}
