import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { InvitationInput, InvitationSent } from "../schemas";
import { inviteToCommunity } from "../service";

export class InviteMember extends Endpoint {
  override schema = {
    tags: ["Members"],
    summary:
      "Invite an officer, a guard or a resident: a set-password link for a new account, a join link for an existing one (the answer says which channel, never a token)",
    request: { body: { content: { "application/json": { schema: InvitationInput } } } },
    responses: { 202: json(InvitationSent, "Invitation sent"), ...problems(400, 401, 403, 404, 409, 429) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await inviteToCommunity({ ctx: tenantCtx(c), input: body }), 202);
  }
}
