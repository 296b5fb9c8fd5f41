import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, tenantProblems } from "../../../core/http/openapi";
import { arrearsPage } from "../iuran-arrears";
import { Arrears, ArrearsQuery } from "../schemas";

export class GetArrears extends Endpoint {
  override schema = {
    tags: ["Iuran"],
    summary:
      "Arrears per unit, a page at a time (owed descending): owed, oldest unpaid period, aging buckets; totals over every unit",
    request: { query: ArrearsQuery },
    responses: { 200: json(Arrears), ...tenantProblems },
  };

  override async handle(c: Context<HonoEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await arrearsPage({ ctx: tenantCtx(c), input: query }));
  }
}
