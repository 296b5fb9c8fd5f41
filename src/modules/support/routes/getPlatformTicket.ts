import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { TicketWithThread } from "../schemas";
import { getPlatformTicket } from "../tickets";

const schema = {
  tags: ["Support (operators)"],
  summary: "Get any support ticket",
  description:
    "Platform operators only. Any ticket with its whole thread, its submitter's contact and whether " +
    "an email to them is still pending.",
  request: { params: IdParam },
  responses: { 200: json(TicketWithThread), ...problems(401, 403, 404) },
};

export class GetPlatformTicket extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getPlatformTicket({ ctx: platformCtx(c), id: params.id }));
  }
}
