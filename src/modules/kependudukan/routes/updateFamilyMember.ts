import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { updateFamilyMember } from "../family-members";
import { FamilyCardDetail, MemberParams, UpdateMemberInput } from "../schemas";

const schema = {
  tags: ["Kependudukan"],
  summary: "Update a family card member",
  description:
    "Secretary and admin, with the registry (`warga`) switched on. Changes a member (partial); the " +
    "NIK must agree with sex and birth date (400 `invalid_nik`) and stay unique (409 `nik_taken`); a " +
    "card keeps exactly one head (409 `kk_head_required`). Optional If-Match (412 " +
    "`precondition_failed`). Audited.",
  request: {
    params: MemberParams,
    body: { content: { "application/json": { schema: UpdateMemberInput } } },
  },
  responses: { 200: json(FamilyCardDetail), ...problems(400, 401, 403, 404, 409) },
};

export class UpdateFamilyMember extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(
      await updateFamilyMember({ ctx: tenantCtx(c), id: params.id, memberId: params.memberId, input: body }),
    );
  }
}
