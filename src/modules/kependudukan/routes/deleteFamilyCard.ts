import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, problems } from "../../../core/http/openapi";
import { deleteFamilyCard } from "../family-cards";

const schema = {
  tags: ["Kependudukan"],
  summary: "Delete a family card",
  description:
    "Secretary and admin, with the registry (`warga`) switched on. Deletes a KK with its members and " +
    "vehicles in one batch (a family that moves away is better recorded as a `pindah_keluar` life " +
    "event). Optional If-Match (412 `precondition_failed`). Audited.",
  request: { params: IdParam },
  responses: { 204: { description: "Deleted" }, ...problems(400, 401, 403, 404) },
};

export class DeleteFamilyCard extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    await deleteFamilyCard({ ctx: tenantCtx(c), id: params.id });
    return c.body(null, 204);
  }
}
