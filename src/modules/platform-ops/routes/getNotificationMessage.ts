import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { getDelivery } from "../deliveries";
import { DeliveryDetail } from "../schemas";

const schema = {
  tags: ["Platform: operations"],
  summary: "Get one notification delivery with its attempts",
  description:
    "Platform operators only. A message of the notification service's delivery log with every " +
    "delivery attempt (outcome, the provider's status and answer), its recipient masked. 503 " +
    "`notification_unavailable` when the service does not answer.",
  request: { params: IdParam },
  responses: { 200: json(DeliveryDetail), ...problems(401, 403, 404, 503) },
};

export class GetNotificationMessage extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getDelivery({ ctx: platformCtx(c), id: params.id }));
  }
}
