import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { replyPublic } from "../public";
import { PublicThread, ReplyInput, ReplyTokenParam } from "../schemas";

export class ReplyPublicTicket extends Endpoint {
  override schema = {
    tags: ["Support (public)"],
    summary: "Reply by reply token (no login); reopens a selesai ticket, operators are told",
    security: [],
    request: { params: ReplyTokenParam, body: { content: { "application/json": { schema: ReplyInput } } } },
    responses: { 201: json(PublicThread, "Appended"), ...problems(400, 404, 429) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(
      await replyPublic({ ctx: platformCtx(c), input: { ...body, token: params.reply_token } }),
      201,
    );
  }
}
