import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { regularCheckIn } from "../regular";
import { GateResult } from "../schemas";

const schema = {
  tags: ["Tamu"],
  summary: "Let a regular visitor in on their card",
  description:
    "The guard (satpam) and staff, with `tamu` on. Admits the card's holder inside one of its windows " +
    "(days and hours, Asia/Jakarta): else 409 `outside_window` (the detail names the schedule and the " +
    "time now), `pass_revoked`, `pass_expired`; 409 `already_checked_in` while they are inside. The entry " +
    "is a visit of its own (`regularId`), listed among who is inside now and checked out by its " +
    "`visitorId` (POST /api/visitor/gate/check-out).",
  request: { params: IdParam },
  responses: { 200: json(GateResult), ...problems(401, 403, 404, 409) },
};

export class RegularVisitorCheckIn extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await regularCheckIn({ ctx: tenantCtx(c), id: params.id }));
  }
}
