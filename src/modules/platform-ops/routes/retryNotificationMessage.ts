import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { retryDelivery } from "../deliveries";
import { DeliveryDetail } from "../schemas";

const schema = {
  tags: ["Platform: operations"],
  summary: "Send a failed or parked notification again",
  description:
    "Platform operators only. Queues a `failed` or `dead` (parked) message again for a fresh round " +
    "of attempts and answers it as it now stands (`queued`). Any other status is 409 " +
    "`message_not_retryable`, so pressing twice queues it once. Audited. 503 " +
    "`notification_unavailable` when the service does not answer (nothing was queued).",
  request: { params: IdParam },
  responses: { 202: json(DeliveryDetail, "Queued again"), ...problems(401, 403, 404, 409, 503) },
};

export class RetryNotificationMessage extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await retryDelivery({ ctx: platformCtx(c), id: params.id }), 202);
  }
}
