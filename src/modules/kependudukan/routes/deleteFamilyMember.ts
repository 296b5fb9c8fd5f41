import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { deleteFamilyMember } from "../family-members";
import { FamilyCardDetail, MemberParams } from "../schemas";

const schema = {
  tags: ["Kependudukan"],
  summary: "Remove a person from a family card",
  description:
    "Secretary and admin, with the registry (`warga`) switched on. Removes a member from the KK; the " +
    "head cannot be removed (409 `kk_head_required`: make another member head first). A death is " +
    "better recorded as a `meninggal` life event. Optional If-Match (412 `precondition_failed`). " +
    "Audited.",
  request: { params: MemberParams },
  responses: { 200: json(FamilyCardDetail), ...problems(400, 401, 403, 404, 409) },
};

export class DeleteFamilyMember extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await deleteFamilyMember({ ctx: tenantCtx(c), id: params.id, memberId: params.memberId }));
  }
}
