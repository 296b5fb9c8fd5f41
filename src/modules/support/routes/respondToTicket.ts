import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { respondToTicket } from "../messages";
import { RespondInput, TicketWithThread } from "../schemas";

export class RespondToTicket extends Endpoint {
  override schema = {
    tags: ["Support (operators)"],
    summary:
      "Respond, change status (baru → diproses → selesai, baru → selesai), or both, in one write; the submitter is emailed",
    request: { params: IdParam, body: { content: { "application/json": { schema: RespondInput } } } },
    responses: { 200: json(TicketWithThread), ...problems(400, 401, 403, 404, 409) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await respondToTicket({ ctx: platformCtx(c), id: params.id, input: body }));
  }
}
