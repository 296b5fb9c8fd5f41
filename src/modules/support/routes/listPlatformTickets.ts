import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { PlatformTicketListQuery, TicketList } from "../schemas";
import { listPlatformTickets } from "../tickets";

const schema = {
  tags: ["Support (operators)"],
  summary: "List every support ticket",
  description:
    "Platform operators only. Every ticket of every community and of the homepage contact form, " +
    "newest first, filtered by status, creation day (`from`/`to`, Asia/Jakarta, inclusive) and tenant " +
    "slug, with summary counts under the same filters, paged by `cursor`.",
  request: { query: PlatformTicketListQuery },
  responses: { 200: json(TicketList), ...problems(400, 401, 403) },
};

export class ListPlatformTickets extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listPlatformTickets({ ctx: platformCtx(c), input: query }));
  }
}
