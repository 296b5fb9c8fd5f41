import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { Member, UnitInput, UserIdParam } from "../schemas";
import { setUnit } from "../service";

const schema = {
  tags: ["Members"],
  summary: "Set the house a member lives at",
  description:
    "Secretary and admin. A house is granted by staff, never claimed (a resident asks through their " +
    "profile, and the request waits in the registry's corrections as `rumah`). Sets the member's unit " +
    "to a house of the registry (404 `unit_not_found`), or null for a member who keeps a duty (409 " +
    "`not_resident` otherwise); 404 for someone not a member here. The person link stays only if that " +
    "person is on a card of the new house. Optional If-Match with the member's ETag (412 " +
    "`precondition_failed`). Audited (`member.unit`).",
  request: {
    params: UserIdParam,
    body: { content: { "application/json": { schema: UnitInput } } },
  },
  responses: { 200: json(Member), ...problems(400, 401, 403, 404, 409) },
};

export class SetMemberUnit extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await setUnit({ ctx: tenantCtx(c), id: params.userId, input: body }));
  }
}
