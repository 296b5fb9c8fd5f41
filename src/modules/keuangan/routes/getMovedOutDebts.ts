import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, tenantProblems } from "../../../core/http/openapi";
import { movedOutDebts } from "../iuran/pindah";
import { ArrearsQuery, MovedOutDebts } from "../schemas";

const schema = {
  tags: ["Iuran"],
  summary: "Get the debts of families that moved out",
  description:
    "Community staff (sekretaris, bendahara, admin). What families that moved out (or whose last " +
    "member died) still owe, labelled `pindah`: recording the move-out settled the bills of their " +
    "house to their family card, so they are no longer the unit's arrears and its next occupant " +
    "never sees them. One row per family with its head, the house it left, the day it left, what it " +
    "owes and its oldest unpaid period; paged by card id (`cursor`).",
  request: { query: ArrearsQuery },
  responses: { 200: json(MovedOutDebts), ...tenantProblems },
};

export class GetMovedOutDebts extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await movedOutDebts({ ctx: tenantCtx(c), input: query }));
  }
}
