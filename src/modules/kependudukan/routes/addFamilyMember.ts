import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { addFamilyMember } from "../family-members";
import { FamilyCardDetail, MemberInput } from "../schemas";

const schema = {
  tags: ["Kependudukan"],
  summary: "Add a person to a family card",
  description:
    "Secretary and admin, with the registry (`warga`) switched on. Adds a member (not a second head) " +
    "with their particulars. The NIK must agree with sex and birth date (400 `invalid_nik`) and be " +
    "unique in the community (409 `nik_taken`). Audited.",
  request: { params: IdParam, body: { content: { "application/json": { schema: MemberInput } } } },
  responses: { 201: json(FamilyCardDetail, "Created"), ...problems(400, 401, 403, 404, 409) },
};

export class AddFamilyMember extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await addFamilyMember({ ctx: tenantCtx(c), id: params.id, input: body }), 201);
  }
}
