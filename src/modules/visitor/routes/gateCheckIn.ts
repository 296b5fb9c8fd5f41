import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { GateResult, GateScanInput } from "../schemas";
import { checkGate } from "../service";

const schema = {
  tags: ["Tamu"],
  summary: "Check a guest in by the scanned pass",
  description:
    "Community staff and the guard (satpam), with `tamu` on. Takes the QR string of the pass (`qr`), or " +
    "its short code as typed (`code`, the registration's `passCode`; an unknown code is 400 `invalid_pass`). The " +
    "pass must be this community's (400 `invalid_pass`, `foreign_pass`) and inside its window (409 " +
    "`pass_not_yet_valid`, `pass_expired`); the visit must be approved and not yet checked in (409 " +
    "`not_approved`, `already_checked_in`, `pass_used`; a pass for a stay of several days, `multiEntry`, " +
    "lets its guest in again after an exit while it is valid). An approved walk-in (issue 45), who holds no " +
    "pass, enters by its registration's id (`visitorId`; 400 `not_walk_in` for any other guest). Records the check-in and who made it in one " +
    "conditional write, so two gates scanning at once record one; 404 when the visit no longer " +
    "exists.",
  request: { body: { content: { "application/json": { schema: GateScanInput } } } },
  responses: { 200: json(GateResult), ...problems(400, 401, 403, 404, 409) },
};

export class GateCheckIn extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await checkGate({ ctx: tenantCtx(c), input: { ...body, direction: "in" } }));
  }
}
