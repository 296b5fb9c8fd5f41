import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { listBills } from "../iuran/bills";
import { BillListQuery, StaffBill } from "../schemas";

const schema = {
  tags: ["Iuran"],
  summary: "List bills",
  description:
    "Community staff (sekretaris, bendahara, admin). Bills filtered by period, status (belum, " +
    "sebagian, lunas) or unit, each with its payments (reversed ones marked), paged by `cursor`.",
  request: { query: BillListQuery },
  responses: { 200: json(listOf(StaffBill)), ...tenantProblems },
};

export class ListBills extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listBills({ ctx: tenantCtx(c), input: query }));
  }
}
