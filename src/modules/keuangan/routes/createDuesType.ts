import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { createDuesType } from "../iuran/jenis";
import { DuesType, DuesTypeInput } from "../schemas";

const schema = {
  tags: ["Iuran"],
  summary: "Create a dues type",
  description:
    "The treasurer and admin. Defines a dues type: an amount in rupiah per unit or per KK, billed " +
    "monthly from its start period, optionally exempting some units (`exemptUnitIds`; 400 " +
    "`unit_not_found` for an id the registry does not hold). Bills are issued by `POST " +
    "/api/iuran/tagihan/generate`. Audited.",
  request: { body: { content: { "application/json": { schema: DuesTypeInput } } } },
  responses: { 201: json(DuesType), ...problems(400, 401, 403) },
};

export class CreateDuesType extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createDuesType({ ctx: tenantCtx(c), input: body }), 201);
  }
}
