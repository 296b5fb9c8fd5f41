import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { myDues } from "../iuran";
import { MyDues } from "../schemas";

export class GetMyDues extends Endpoint {
  override schema = {
    tags: ["Iuran"],
    summary:
      "The caller's household bills, unpaid first, with totals (409 profile_incomplete without a unit)",
    request: {},
    responses: { 200: json(MyDues), ...problems(401, 403, 409) },
  };

  override async handle(c: Context<HonoEnv>) {
    return c.json(await myDues({ ctx: tenantCtx(c) }));
  }
}
