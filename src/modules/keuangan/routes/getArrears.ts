import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, tenantProblems } from "../../../core/http/openapi";
import { arrears } from "../iuran-arrears";
import { Arrears } from "../schemas";

export class GetArrears extends Endpoint {
  override schema = {
    tags: ["Iuran"],
    summary: "Arrears per unit: owed, oldest unpaid period, aging buckets, totals",
    request: {},
    responses: { 200: json(Arrears), ...tenantProblems },
  };

  override async handle(c: Context<HonoEnv>) {
    return c.json(await arrears({ ctx: tenantCtx(c) }));
  }
}
