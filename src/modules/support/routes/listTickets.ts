import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, tenantProblems } from "../../../core/http/openapi";
import { TicketList, TicketListQuery } from "../schemas";
import { listTenantTickets } from "../tickets";

const schema = {
  tags: ["Support"],
  summary: "List the community's support tickets",
  description:
    "Admin only: the community's support channel to the platform team. The community's own tickets, " +
    "newest first, filtered by status (baru, diproses, selesai) and creation day (`from`/`to`, " +
    "Asia/Jakarta, inclusive), with summary counts under the same filters, paged by `cursor`.",
  request: { query: TicketListQuery },
  responses: { 200: json(TicketList), ...tenantProblems },
};

export class ListTickets extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listTenantTickets({ ctx: tenantCtx(c), input: query }));
  }
}
