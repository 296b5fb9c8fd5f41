import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { PlatformTicketListQuery, TicketList } from "../schemas";
import { listPlatformTickets } from "../tickets";

export class ListPlatformTickets extends Endpoint {
  override schema = {
    tags: ["Support (operators)"],
    summary:
      "Every ticket by status, creation day (Asia/Jakarta, inclusive) and tenant slug, with summary counts under the same filters",
    request: { query: PlatformTicketListQuery },
    responses: { 200: json(TicketList), ...problems(400, 401, 403) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listPlatformTickets({ ctx: platformCtx(c), input: query }));
  }
}
