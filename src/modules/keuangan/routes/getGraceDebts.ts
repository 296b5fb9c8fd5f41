import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { graceDebts } from "../iuran/tanggungan";
import { GraceDebts } from "../schemas";

const schema = {
  tags: ["User"],
  summary: "What my family still owes where I moved out",
  description:
    "Any signed-in user, for themselves (issue 45): for each community the caller's family moved out " +
    "of and whose 30-day grace period has not ended, the open bills settled to that family (its " +
    "moved-out debt), with what is still owed. Only the family of the registry person the caller's " +
    "membership is linked to; after the grace period the community is no longer listed. Empty for " +
    "everyone else.",
  responses: { 200: json(GraceDebts), ...problems(401) },
};

export class GetGraceDebts extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    return c.json(await graceDebts({ ctx: platformCtx(c) }));
  }
}
