import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { Member, PersonInput, UserIdParam } from "../schemas";
import { linkPerson } from "../service";

export class LinkMemberPerson extends Endpoint {
  override schema = {
    tags: ["Members"],
    summary:
      "Link a member's account to their own person on a family card (null unlinks); one account per person (409 person_taken)",
    request: {
      params: UserIdParam,
      body: { content: { "application/json": { schema: PersonInput } } },
    },
    responses: { 200: json(Member), ...problems(400, 401, 403, 404, 409) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await linkPerson({ ctx: tenantCtx(c), id: params.userId, input: body }));
  }
}
