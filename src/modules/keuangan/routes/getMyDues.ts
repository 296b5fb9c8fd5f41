import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { myDues } from "../iuran/household";
import { MyDues } from "../schemas";

const schema = {
  tags: ["Iuran"],
  summary: "Get the caller's household bills",
  description:
    "Residents only. Their household's bills, unpaid first, with the totals billed, paid and " +
    "outstanding. Needs a housing unit on the profile: 409 `profile_incomplete` otherwise.",
  request: {},
  responses: { 200: json(MyDues), ...problems(401, 403, 409) },
};

export class GetMyDues extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    return c.json(await myDues({ ctx: tenantCtx(c) }));
  }
}
