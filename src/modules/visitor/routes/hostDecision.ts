import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { HostDecisionInput, Visitor } from "../schemas";
import { hostDecision } from "../service";

const schema = {
  tags: ["Tamu"],
  summary: "The host approves or rejects a walk-in to their house",
  description:
    "Residents, with `tamu` on. A guest the guard registered at the gate for the caller's house " +
    "(listed in GET /api/visitor/mine as menunggu) is approved (a pass for the rest of the day, " +
    "`approvalMethod` `tuan_rumah`) or rejected. 404 for a walk-in to another house; 409 `not_walk_in` " +
    "for the caller's own registration (staff decide those); 409 `invalid_transition` once decided. " +
    "Audited.",
  request: { params: IdParam, body: { content: { "application/json": { schema: HostDecisionInput } } } },
  responses: { 200: json(Visitor), ...problems(400, 401, 403, 404, 409) },
};

export class HostDecision extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await hostDecision({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
