import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { InvitationInput, InvitationSent } from "../schemas";
import { inviteToCommunity } from "../service";

const schema = {
  tags: ["Members"],
  summary: "Invite an officer, a guard or a resident",
  description:
    "Admin only. A new email or number gets an account and a set-password link (7 days); an existing " +
    "account gets a join link at its own contact and joins only by accepting it. The answer names the " +
    "channel and whether the message went out, never a token, and says nothing about whether an " +
    "account existed. 409 `already_member`, `no_contact` (a resident with neither email nor " +
    "WhatsApp), `person_taken` or `account_conflict`; 404 `unit_not_found` for an unknown unit. " +
    "A new invitation to the same person retires their earlier unused ones here (only the newest " +
    "one's duties can be accepted); pending ones are listed at `GET /api/members/invitations`. " +
    "Limited per admin (429 `rate_limited`). Audited.",
  request: { body: { content: { "application/json": { schema: InvitationInput } } } },
  responses: { 202: json(InvitationSent, "Invitation sent"), ...problems(400, 401, 403, 404, 409, 429) },
};

export class InviteMember extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await inviteToCommunity({ ctx: tenantCtx(c), input: body }), 202);
  }
}
