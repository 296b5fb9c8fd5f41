import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { myHousehold } from "../families";
import { Household } from "../schemas";

export class GetMyHousehold extends Endpoint {
  override schema = {
    tags: ["Kependudukan"],
    summary: "The caller's household (every KK at their unit), NIKs masked: whom a letter may be for",
    responses: { 200: json(Household), ...problems(401, 403, 409) },
  };

  override async handle(c: Context<HonoEnv>) {
    return c.json(await myHousehold({ ctx: tenantCtx(c) }));
  }
}
