import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { updateComplaint } from "../complaints";
import { Complaint, UpdateComplaintInput } from "../schemas";

const schema = {
  tags: ["Pengaduan"],
  summary: "Respond to a complaint or move it",
  description:
    "Community staff (sekretaris, bendahara, admin). Moves baru → diproses or ditolak, diproses → " +
    "selesai or ditolak, or adds a progress note while diproses; each write adds a response to the " +
    "thread and the resident is told (push and message). A response is required for ditolak and for a " +
    "note without a move (400 `response_required`). 409 `invalid_transition` for any other move " +
    "(selesai and ditolak are final) or a complaint changed meanwhile. Optional If-Match (412 " +
    "`precondition_failed`). Audited.",
  request: { params: IdParam, body: { content: { "application/json": { schema: UpdateComplaintInput } } } },
  responses: { 200: json(Complaint), ...problems(400, 401, 403, 404, 409) },
};

export class UpdateComplaint extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await updateComplaint({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
