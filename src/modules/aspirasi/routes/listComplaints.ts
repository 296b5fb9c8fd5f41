import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { listComplaints } from "../complaints";
import { Complaint, ComplaintListQuery } from "../schemas";

const schema = {
  tags: ["Pengaduan"],
  summary: "List complaints for staff",
  description:
    "Community staff (sekretaris, bendahara, admin). Every complaint of the community, newest first, " +
    "filtered by status (baru, diproses, selesai, ditolak), category and filing date (`from`/`to`, " +
    "Asia/Jakarta days, inclusive), paged by `cursor`.",
  request: { query: ComplaintListQuery },
  responses: { 200: json(listOf(Complaint)), ...tenantProblems },
};

export class ListComplaints extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listComplaints({ ctx: tenantCtx(c), input: query }));
  }
}
