import type { Context } from "hono";
import { z } from "zod";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, tenantProblems } from "../../../core/http/openapi";
import { listDuesTypes } from "../iuran/jenis";
import { DuesType } from "../schemas";

const schema = {
  tags: ["Iuran"],
  summary: "List dues types",
  description:
    "Community staff (sekretaris, bendahara, admin). The dues types with the amount in force, their " +
    "basis (per unit or per KK), start period, and any amount change scheduled from the next period, " +
    "paged by `cursor`.",
  request: {},
  responses: { 200: json(z.object({ items: z.array(DuesType) })), ...tenantProblems },
};

export class ListDuesTypes extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    return c.json(await listDuesTypes({ ctx: tenantCtx(c) }));
  }
}
