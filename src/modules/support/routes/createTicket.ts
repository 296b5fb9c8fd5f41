import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { CreatedTicket, CreateTicketInput } from "../schemas";
import { createTicket } from "../tickets";

const schema = {
  tags: ["Support"],
  summary: "Open a support ticket",
  description:
    "Admin only: the community's support channel to the platform team. Opens a ticket to the platform " +
    "team with a subject, a category, the detail and an optional image (`attachment_url`) from `POST " +
    "/api/uploads/resident-image` (400 `invalid_attachment` for any other URL). It starts as baru; " +
    "the submitter is emailed a confirmation with a reply link and the operators are told. " +
    "`notification_pending` says whether the submitter's email is still on its way.",
  request: { body: { content: { "application/json": { schema: CreateTicketInput } } } },
  responses: { 201: json(CreatedTicket, "Created"), ...problems(400, 401, 403) },
};

export class CreateTicket extends Endpoint {
  /** The answer's reply_token opens the ticket without signing in: a repeat answers 409 idempotency_answer_unavailable. */
  static override credentialAnswer = "no-replay" as const;

  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createTicket({ ctx: tenantCtx(c), input: body }), 201);
  }
}
