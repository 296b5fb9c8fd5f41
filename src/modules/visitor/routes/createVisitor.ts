import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { CreateVisitorInput, Visitor } from "../schemas";
import { createVisitor } from "../service";

const schema = {
  tags: ["Tamu"],
  summary: "Register a guest",
  description:
    "Residents only, with the guest book (`tamu`) switched on. Registers a visit to the resident's " +
    "own unit; the request starts as menunggu until staff approve or reject it. Needs a complete " +
    "profile (409 `profile_incomplete`). The visit may be at most an hour in the past (400 " +
    "`visit_in_past`) and at most 90 days ahead (400 `visit_too_far`). At most 30 registrations per " +
    "member per day (429 `rate_limited`).",
  request: { body: { content: { "application/json": { schema: CreateVisitorInput } } } },
  responses: { 201: json(Visitor, "Created"), ...problems(400, 401, 403, 409, 429) },
};

export class CreateVisitor extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createVisitor({ ctx: tenantCtx(c), input: body }), 201);
  }
}
