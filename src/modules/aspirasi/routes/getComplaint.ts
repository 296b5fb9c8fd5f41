import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, tenantProblems } from "../../../core/http/openapi";
import { getComplaint } from "../complaints";
import { Complaint } from "../schemas";

export class GetComplaint extends Endpoint {
  override schema = {
    tags: ["Pengaduan"],
    summary: "One complaint with its thread (its resident or staff)",
    request: { params: IdParam },
    responses: { 200: json(Complaint), ...tenantProblems },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getComplaint({ ctx: tenantCtx(c), id: params.id }));
  }
}
