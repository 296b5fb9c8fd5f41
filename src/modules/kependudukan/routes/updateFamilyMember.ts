import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { updateFamilyMember } from "../family-members";
import { FamilyCardDetail, MemberParams, UpdateMemberInput } from "../schemas";

export class UpdateFamilyMember extends Endpoint {
  override schema = {
    tags: ["Kependudukan"],
    summary: "Change a member (partial); the NIK must agree with sex and birth date",
    request: {
      params: MemberParams,
      body: { content: { "application/json": { schema: UpdateMemberInput } } },
    },
    responses: { 200: json(FamilyCardDetail), ...problems(400, 401, 403, 404, 409) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(
      await updateFamilyMember({ ctx: tenantCtx(c), id: params.id, memberId: params.memberId, input: body }),
    );
  }
}
