import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { problems } from "../../../core/http/openapi";
import { InvitationIdParam } from "../schemas";
import { withdrawInvitation } from "../service";

const schema = {
  tags: ["Members"],
  summary: "Revoke a pending invitation",
  description:
    "Admin only. The link stops working: whoever opens or accepts it is told it was withdrawn " +
    "(`invitation_retired` on the auth routes). " +
    "404 for an invitation of another community or one already used, expired or revoked. A new " +
    "account's membership stays, listed as invited (`diundang`): remove the member to end it. Audited.",
  request: { params: InvitationIdParam },
  responses: { 204: { description: "Revoked" }, ...problems(400, 401, 403, 404) },
};

export class RevokeInvitation extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    await withdrawInvitation({ ctx: tenantCtx(c), id: params.id });
    return c.body(null, 204);
  }
}
