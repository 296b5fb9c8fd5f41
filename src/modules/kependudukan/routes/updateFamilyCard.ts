import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { updateFamilyCard } from "../family-cards";
import { FamilyCardDetail, UpdateFamilyCardInput } from "../schemas";

const schema = {
  tags: ["Kependudukan"],
  summary: "Update a family card",
  description:
    "Secretary and admin, with the registry (`warga`) switched on. Changes a KK (partial): number, " +
    "unit, head's WhatsApp, status, notes. 400 `invalid_kk_number`; 409 `kk_number_taken`; 404 " +
    "`unit_not_found`. Optional If-Match (412 `precondition_failed`). Audited.",
  request: {
    params: IdParam,
    body: { content: { "application/json": { schema: UpdateFamilyCardInput } } },
  },
  responses: { 200: json(FamilyCardDetail), ...problems(400, 401, 403, 404, 409) },
};

export class UpdateFamilyCard extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await updateFamilyCard({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
