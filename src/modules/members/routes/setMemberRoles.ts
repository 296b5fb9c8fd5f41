import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { Member, RolesInput, UserIdParam } from "../schemas";
import { changeRoles } from "../service";

const schema = {
  tags: ["Members"],
  summary: "Set a member's duties",
  description:
    "Admin only. Replaces the member's duties (sekretaris, bendahara, admin, satpam; none leaves a " +
    "plain resident). Removing a duty ends their sessions in this community, so it takes effect at " +
    "once. 409 `last_admin` when no admin would remain, 409 `not_resident` for someone with no house " +
    "left with no duty; 404 for someone not a member here. Optional If-Match with the member's ETag " +
    "(412 `precondition_failed`). Audited.",
  request: {
    params: UserIdParam,
    body: { content: { "application/json": { schema: RolesInput } } },
  },
  responses: { 200: json(Member), ...problems(400, 401, 403, 404, 409) },
};

export class SetMemberRoles extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await changeRoles({ ctx: tenantCtx(c), id: params.userId, input: body }));
  }
}
