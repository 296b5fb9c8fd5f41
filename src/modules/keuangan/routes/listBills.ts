import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { listBills } from "../iuran";
import { Bill, BillListQuery } from "../schemas";

export class ListBills extends Endpoint {
  override schema = {
    tags: ["Iuran"],
    summary: "Bills by period, status or unit",
    request: { query: BillListQuery },
    responses: { 200: json(listOf(Bill)), ...tenantProblems },
  };

  override async handle(c: Context<HonoEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listBills({ ctx: tenantCtx(c), input: query }));
  }
}
