import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { listDeliveries } from "../deliveries";
import { DeliveryList, DeliveryListQuery } from "../schemas";

const schema = {
  tags: ["Platform: operations"],
  summary: "List the notification service's deliveries",
  description:
    "Platform operators only. The notification service's delivery log, newest first, filtered by " +
    "status (`failed`; `dead` is a parked message), channel, community and Jakarta calendar days, " +
    "paged by `cursor`. Recipients are masked and message texts are not shown. 503 " +
    "`notification_unavailable` when the service does not answer.",
  request: { query: DeliveryListQuery },
  responses: { 200: json(DeliveryList), ...problems(400, 401, 403, 404, 503) },
};

export class ListNotificationMessages extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listDeliveries({ ctx: platformCtx(c), input: query }));
  }
}
