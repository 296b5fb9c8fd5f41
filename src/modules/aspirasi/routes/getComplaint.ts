import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, tenantProblems } from "../../../core/http/openapi";
import { getComplaint } from "../complaints";
import { Complaint } from "../schemas";

const schema = {
  tags: ["Pengaduan"],
  summary: "Get a complaint with its thread",
  description:
    "Members: the resident who filed it (another resident's complaint is 404) or community staff. The " +
    "complaint with its thread of staff responses and status changes. ETag and 304 for If-None-Match.",
  request: { params: IdParam },
  responses: { 200: json(Complaint), ...tenantProblems },
};

export class GetComplaint extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getComplaint({ ctx: tenantCtx(c), id: params.id }));
  }
}
