import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { updateComplaint } from "../complaints";
import { Complaint, UpdateComplaintInput } from "../schemas";

export class UpdateComplaint extends Endpoint {
  override schema = {
    tags: ["Pengaduan"],
    summary: "Move a complaint (baru → diproses → selesai, or ditolak) with a response; tells the resident",
    request: { params: IdParam, body: { content: { "application/json": { schema: UpdateComplaintInput } } } },
    responses: { 200: json(Complaint), ...problems(400, 401, 403, 404, 409) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await updateComplaint({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
