import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { GateResult, GateScanInput } from "../schemas";
import { checkGate } from "../service";

const schema = {
  tags: ["Tamu"],
  summary: "Check a guest out by the scanned pass",
  description:
    "Community staff and the guard (satpam), with `tamu` on. Takes the QR string of the pass (`qr`) or " +
    "its short code as typed (`code`, the registration's `passCode`); the " +
    "guest must have been checked in and not yet out (409 `not_checked_in`, `already_checked_out`, " +
    "`not_approved`). The pass is checked as at check-in (400 `invalid_pass`, `foreign_pass`; 409 " +
    "`pass_not_yet_valid`, `pass_expired`). From the guard's list of who is inside now (GET " +
    "/api/visitor?inside=true), the registration's id (`visitorId`) checks anyone out, with no pass and " +
    "whatever its window (issue 45). Records the check-out and who made it; 404 when the visit " +
    "no longer exists.",
  request: { body: { content: { "application/json": { schema: GateScanInput } } } },
  responses: { 200: json(GateResult), ...problems(400, 401, 403, 404, 409) },
};

export class GateCheckOut extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await checkGate({ ctx: tenantCtx(c), input: { ...body, direction: "out" } }));
  }
}
