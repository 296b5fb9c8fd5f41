import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, tenantProblems } from "../../../core/http/openapi";
import { TicketWithThread } from "../schemas";
import { getTenantTicket } from "../tickets";

const schema = {
  tags: ["Support"],
  summary: "Get a support ticket with its thread",
  description:
    "Admin only: the community's support channel to the platform team. One of the community's tickets " +
    "with its whole thread of messages and images; another community's ticket is 404.",
  request: { params: IdParam },
  responses: { 200: json(TicketWithThread), ...tenantProblems },
};

export class GetTicket extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getTenantTicket({ ctx: tenantCtx(c), id: params.id }));
  }
}
