import type { Context } from "hono";
import { z } from "zod";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { Paragraph } from "../../../core/schemas";
import { Visitor } from "../schemas";
import { phoneApproval } from "../service";

const schema = {
  tags: ["Tamu"],
  summary: "The guard approves a walk-in after calling the host",
  description:
    "The guard (satpam) and community staff, with `tamu` on. Approves a waiting walk-in on the host's " +
    "word by phone: recorded with `approvalMethod` `telepon` and the caller as the one who decided. " +
    "400 `not_walk_in` for a resident's own registration; 409 `invalid_transition` once decided. Audited.",
  request: {
    params: IdParam,
    body: {
      content: {
        "application/json": {
          schema: z.object({
            note: Paragraph(500, 0).optional().describe("e.g. who answered the call"),
          }),
        },
      },
    },
  },
  responses: { 200: json(Visitor), ...problems(400, 401, 403, 404, 409) },
};

export class PhoneApproval extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await phoneApproval({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
