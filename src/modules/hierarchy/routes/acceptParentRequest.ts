import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { acceptParentRequest } from "../links";
import { AcceptedParent } from "../schemas";

export class AcceptParentRequest extends Endpoint {
  override schema = {
    tags: ["Tenant hierarchy"],
    summary: "Accept the RW's request: this RT is linked to it, and the RW head reads its counts from now on",
    responses: { 200: json(AcceptedParent, "Linked"), ...problems(401, 403, 404, 409) },
  };

  override async handle(c: Context<HonoEnv>) {
    return c.json(await acceptParentRequest({ ctx: tenantCtx(c) }));
  }
}
