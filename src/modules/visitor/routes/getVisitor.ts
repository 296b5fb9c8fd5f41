import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, tenantProblems } from "../../../core/http/openapi";
import { Visitor } from "../schemas";
import { getVisitor } from "../service";

const schema = {
  tags: ["Tamu"],
  summary: "Get a guest registration",
  description:
    "Members with `tamu` on: a resident sees only their own registrations (another's is 404), staff " +
    "see any. Answers the registration with its status and, once approved, its pass window and QR " +
    "string, and `notificationPending` while the resident has not yet been told of the approval. ETag " +
    "and 304 for If-None-Match.",
  request: { params: IdParam },
  responses: { 200: json(Visitor), ...tenantProblems },
};

export class GetVisitor extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getVisitor({ ctx: tenantCtx(c), id: params.id }));
  }
}
