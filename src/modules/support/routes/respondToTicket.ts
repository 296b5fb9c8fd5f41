import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { respondToTicket } from "../messages";
import { RespondInput, TicketWithThread } from "../schemas";

const schema = {
  tags: ["Support (operators)"],
  summary: "Respond to a support ticket or change its status",
  description:
    "Platform operators only. Adds a response, changes the status (baru → diproses → selesai, or baru " +
    "→ selesai), or both, in one write; the submitter is emailed the response with a reply link. 409 " +
    "`invalid_transition` for any other move (a selesai ticket is reopened only by a reply); 400 " +
    "`invalid_attachment`.",
  request: { params: IdParam, body: { content: { "application/json": { schema: RespondInput } } } },
  responses: { 200: json(TicketWithThread), ...problems(400, 401, 403, 404, 409) },
};

export class RespondToTicket extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await respondToTicket({ ctx: platformCtx(c), id: params.id, input: body }));
  }
}
