import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { replyFromConsole } from "../messages";
import { ReplyInput, TicketWithThread } from "../schemas";

const schema = {
  tags: ["Support"],
  summary: "Reply to a support ticket",
  description:
    "Admin only: the community's support channel to the platform team. Adds a message (and an " +
    "optional image) to one of the community's tickets; a selesai ticket is reopened to diproses, and " +
    "the operators are told. 400 `invalid_attachment` for an image that is not this ticket's upload.",
  request: { params: IdParam, body: { content: { "application/json": { schema: ReplyInput } } } },
  responses: { 201: json(TicketWithThread, "Appended"), ...problems(400, 401, 403, 404) },
};

export class ReplyToTicket extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await replyFromConsole({ ctx: tenantCtx(c), id: params.id, input: body }), 201);
  }
}
