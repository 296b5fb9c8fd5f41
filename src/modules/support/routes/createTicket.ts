import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { CreatedTicket, CreateTicketInput } from "../schemas";
import { createTicket } from "../tickets";

export class CreateTicket extends Endpoint {
  override schema = {
    tags: ["Support"],
    summary:
      "Open a support ticket to the platform (starts as baru; the submitter and operators are emailed)",
    request: { body: { content: { "application/json": { schema: CreateTicketInput } } } },
    responses: { 201: json(CreatedTicket, "Created"), ...problems(400, 401, 403) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createTicket({ ctx: tenantCtx(c), input: body }), 201);
  }
}
