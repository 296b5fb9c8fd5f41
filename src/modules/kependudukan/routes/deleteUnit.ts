import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, problems } from "../../../core/http/openapi";
import { residentsAtUnit } from "../../identity/service";
import { deleteUnit } from "../service";

const schema = {
  tags: ["Kependudukan"],
  summary: "Delete a housing unit",
  description:
    "Secretary and admin, with the registry (`warga`) switched on. Removes a unit that no family card " +
    "and no resident account uses: 409 `unit_in_use` otherwise. Optional If-Match (412 " +
    "`precondition_failed`). Audited.",
  request: { params: IdParam },
  responses: { 204: { description: "Deleted" }, ...problems(400, 401, 403, 404, 409) },
};

export class DeleteUnit extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    const ctx = tenantCtx(c);
    // Identity knows whose house is whose; the registry does not import identity, so the route joins.
    const residents = await residentsAtUnit({ ctx, unitId: params.id });
    await deleteUnit({ ctx, id: params.id, residents });
    return c.body(null, 204);
  }
}
