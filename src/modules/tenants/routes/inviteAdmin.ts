import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { inviteTenantAdmin } from "../admins";
import { AdminInvitation, AdminInviteeInput } from "../schemas";

export class InviteAdmin extends Endpoint {
  override schema = {
    tags: ["Platform: tenants"],
    summary:
      "Invite an admin into a community, or re-send the set-password link of one who never set a password",
    request: { params: IdParam, body: { content: { "application/json": { schema: AdminInviteeInput } } } },
    responses: { 202: json(AdminInvitation, "Sent"), ...problems(400, 401, 403, 404, 409, 410) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await inviteTenantAdmin({ ctx: platformCtx(c), id: params.id, input: body }), 202);
  }
}
