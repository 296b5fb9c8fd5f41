import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { createComplaint } from "../complaints";
import { Complaint, CreateComplaintInput } from "../schemas";

const schema = {
  tags: ["Pengaduan"],
  summary: "File a complaint",
  description:
    "Residents only. Sends a complaint (title, category, description, an optional evidence photo) to " +
    "the community's staff, who are notified; it starts as baru. The photo must be the caller's own " +
    "upload from `POST /api/files` with purpose `pengaduan` (422 `foreign_image` otherwise). At most " +
    "20 complaints per member per day (429 `rate_limited`).",
  request: { body: { content: { "application/json": { schema: CreateComplaintInput } } } },
  responses: { 201: json(Complaint, "Created"), ...problems(400, 401, 403, 422, 429) },
};

export class CreateComplaint extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createComplaint({ ctx: tenantCtx(c), input: body }), 201);
  }
}
