import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { replyFromConsole } from "../messages";
import { ReplyInput, TicketWithThread } from "../schemas";

export class ReplyToTicket extends Endpoint {
  override schema = {
    tags: ["Support"],
    summary: "Reply from the console (reopens a selesai ticket to diproses; operators are told)",
    request: { params: IdParam, body: { content: { "application/json": { schema: ReplyInput } } } },
    responses: { 201: json(TicketWithThread, "Appended"), ...problems(400, 401, 403, 404) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await replyFromConsole({ ctx: tenantCtx(c), id: params.id, input: body }), 201);
  }
}
