import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { createFamilyCard } from "../family-cards";
import { CreateFamilyCardInput, FamilyCardDetail } from "../schemas";

const schema = {
  tags: ["Kependudukan"],
  summary: "Register a family card",
  description:
    "Secretary and admin, with the registry (`warga`) switched on. Registers a KK at a unit (404 " +
    "`unit_not_found` otherwise) with its head as the first member. The KK number and the NIK are " +
    "checked (400 `invalid_kk_number`, `invalid_nik`: 16 digits, the NIK agreeing with sex and birth " +
    "date) and unique in the community (409 `kk_number_taken`, `nik_taken`). Audited.",
  request: { body: { content: { "application/json": { schema: CreateFamilyCardInput } } } },
  responses: { 201: json(FamilyCardDetail, "Created"), ...problems(400, 401, 403, 404, 409) },
};

export class CreateFamilyCard extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createFamilyCard({ ctx: tenantCtx(c), input: body }), 201);
  }
}
