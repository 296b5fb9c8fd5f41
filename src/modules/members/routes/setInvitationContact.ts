import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { InvitationContactInput, InvitationIdParam, InvitationSent } from "../schemas";
import { changeInvitationContact } from "../service";

const schema = {
  tags: ["Members"],
  summary: "Add an email or a WhatsApp number to an invitation and re-send it",
  description:
    "Admin only (issue 45). For a new account's invitation nobody has used yet (`kind: account` in " +
    "`GET /api/members/invitations`, expired or not): exactly one of `email` or `whatsapp` is stored " +
    "unverified on the invited account (using the link proves it) and a new link goes out through it, " +
    "retiring the older ones. The answer is the invitation outcome inviting gives. 404 for an " +
    "invitation of another community; 409 `invitation_not_pending` for one accepted, revoked or " +
    "replaced (re-send the newest, or invite again), `invitation_is_join` for an existing account's " +
    "join link (revoke it and invite by another contact), `whatsapp_taken` for a number another account " +
    "has verified, `account_conflict` for an email another account has (invite by that email instead). " +
    "Limited per admin as invitations are (429 `rate_limited`). Audited without the contact.",
  request: {
    params: InvitationIdParam,
    body: { content: { "application/json": { schema: InvitationContactInput } } },
  },
  responses: {
    200: json(InvitationSent, "Contact stored, invitation re-sent"),
    ...problems(400, 401, 403, 404, 409, 429),
  },
};

export class SetInvitationContact extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await changeInvitationContact({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
