import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { createFamilyCard } from "../family-cards";
import { CreateFamilyCardInput, FamilyCardDetail } from "../schemas";

export class CreateFamilyCard extends Endpoint {
  override schema = {
    tags: ["Kependudukan"],
    summary: "Register a family card (KK) at a unit, with its head as the first member",
    request: { body: { content: { "application/json": { schema: CreateFamilyCardInput } } } },
    responses: { 201: json(FamilyCardDetail, "Created"), ...problems(400, 401, 403, 404, 409) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createFamilyCard({ ctx: tenantCtx(c), input: body }), 201);
  }
}
