import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { Member, PersonInput, UserIdParam } from "../schemas";
import { linkPerson } from "../service";

const schema = {
  tags: ["Members"],
  summary: "Link a member's account to their person in the registry",
  description:
    "Secretary and admin. Links the account to the member's own person on a family card of this " +
    "registry (`personId`), or unlinks it with null. The person must be on a card of the member's " +
    "house: 409 `person_not_in_household` otherwise, unless an admin sends `override: true` (403 for " +
    "the secretary), which the audit record keeps. One account per person: 409 `person_taken`; 404 " +
    "`person_not_found` for an id the registry does not hold, 404 for someone not a member here. " +
    "Optional If-Match with the member's ETag (412 `precondition_failed`).",
  request: {
    params: UserIdParam,
    body: { content: { "application/json": { schema: PersonInput } } },
  },
  responses: { 200: json(Member), ...problems(400, 401, 403, 404, 409) },
};

export class LinkMemberPerson extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await linkPerson({ ctx: tenantCtx(c), id: params.userId, input: body }));
  }
}
