import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, tenantProblems } from "../../../core/http/openapi";
import { Visitor } from "../schemas";
import { getVisitor } from "../service";

export class GetVisitor extends Endpoint {
  override schema = {
    tags: ["Tamu"],
    summary: "One guest registration (its resident or staff), with its pass once approved",
    request: { params: IdParam },
    responses: { 200: json(Visitor), ...tenantProblems },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getVisitor({ ctx: tenantCtx(c), id: params.id }));
  }
}
