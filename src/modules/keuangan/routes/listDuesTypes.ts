import type { Context } from "hono";
import { z } from "zod";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, tenantProblems } from "../../../core/http/openapi";
import { listDuesTypes } from "../iuran-types";
import { DuesType } from "../schemas";

export class ListDuesTypes extends Endpoint {
  override schema = {
    tags: ["Iuran"],
    summary: "Dues types with the amount in force and any change from the next period",
    request: {},
    responses: { 200: json(z.object({ items: z.array(DuesType) })), ...tenantProblems },
  };

  override async handle(c: Context<HonoEnv>) {
    return c.json(await listDuesTypes({ ctx: tenantCtx(c) }));
  }
}
