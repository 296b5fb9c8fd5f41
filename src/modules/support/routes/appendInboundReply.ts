import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { appendInbound } from "../public";
import { InboundAppended, InboundDuplicate, InboundReplyInput } from "../schemas";

const schema = {
  tags: ["Internal"],
  summary: "Hand over an email reply to a ticket",
  description:
    "Internal: the ticket-mail Worker only, by the `X-Service-Internal-Key` header (401 otherwise). " +
    "Appends the reply an email brought to its ticket, found by the reply token in the address; " +
    "idempotent per Message-ID (200 when already appended, 201 when added). 400 `empty_reply`; 404 " +
    "for an unknown token.",
  request: { body: { content: { "application/json": { schema: InboundReplyInput } } } },
  responses: {
    201: json(InboundAppended, "Appended"),
    200: json(InboundDuplicate, "This Message-ID was appended before"),
    ...problems(400, 401, 404),
  },
};

export class AppendInboundReply extends Endpoint {
  /** An inbound email reply: up to 100,000 characters of text (multi-byte in UTF-8) and its metadata. */
  static override maxBodyBytes = 512 * 1024;
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const result = await appendInbound({ ctx: platformCtx(c), input: body });
    return "duplicate" in result ? c.json(result, 200) : c.json(result, 201);
  }
}
