import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { deliveryOf } from "../pengumuman";
import { DeliverySummary } from "../schemas";

const schema = {
  tags: ["Pengumuman"],
  summary: "Get an announcement's delivery report",
  description:
    "Secretary and admin. For the latest version sent, per channel: how many messages are queued, " +
    "sent, failed or skipped, with the reasons for those skipped or failed. 503 " +
    "`notification_unavailable` when the notification service cannot be reached.",
  request: { params: IdParam },
  responses: { 200: json(DeliverySummary), ...problems(400, 401, 403, 404, 503) },
};

export class GetPengumumanDelivery extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await deliveryOf({ ctx: tenantCtx(c), id: params.id }));
  }
}
