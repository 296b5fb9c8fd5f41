import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { createComplaint } from "../complaints";
import { Complaint, CreateComplaintInput } from "../schemas";

export class CreateComplaint extends Endpoint {
  override schema = {
    tags: ["Pengaduan"],
    summary: "Send a complaint to the RT staff; starts as baru",
    request: { body: { content: { "application/json": { schema: CreateComplaintInput } } } },
    responses: { 201: json(Complaint, "Created"), ...problems(400, 401, 403, 422, 429) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createComplaint({ ctx: tenantCtx(c), input: body }), 201);
  }
}
