import type { Context } from "hono";
import { ListQuery } from "../../../core/db/paging";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { listMyComplaints } from "../complaints";
import { Complaint } from "../schemas";

const schema = {
  tags: ["Pengaduan"],
  summary: "List the caller's complaints",
  description:
    "Residents only. The caller's own complaints, newest first, with their status, paged by `cursor`.",
  request: { query: ListQuery },
  responses: { 200: json(listOf(Complaint)), ...tenantProblems },
};

export class ListMyComplaints extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listMyComplaints({ ctx: tenantCtx(c), input: query }));
  }
}
