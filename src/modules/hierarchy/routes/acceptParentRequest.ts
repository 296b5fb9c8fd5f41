import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { acceptParentRequest } from "../links";
import { AcceptedParent } from "../schemas";

const schema = {
  tags: ["Tenant hierarchy"],
  summary: "Accept the RW's link request",
  description:
    "Admin of an RT community. Accepts the waiting request: this RT is linked to the RW, whose admin " +
    "reads its counts from now on (no resident's name or record). Letters go to the RW for " +
    "acknowledgement only once this RT's admin turns `rwAcknowledgement` on in the letter settings " +
    "(off by default); the RW then sees each finished letter's resident, type, purpose, number, date " +
    "and signatory. 404 " +
    "`no_link_request` when no request waits (withdrawn, declined or overtaken meanwhile); 409 " +
    "`invalid_parent` when the RW that asked has closed since.",
  responses: { 200: json(AcceptedParent, "Linked"), ...problems(401, 403, 404, 409) },
};

export class AcceptParentRequest extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    return c.json(await acceptParentRequest({ ctx: tenantCtx(c) }));
  }
}
