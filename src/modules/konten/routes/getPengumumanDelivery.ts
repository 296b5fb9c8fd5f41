import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { deliveryOf } from "../pengumuman";
import { DeliverySummary } from "../schemas";

export class GetPengumumanDelivery extends Endpoint {
  override schema = {
    tags: ["Pengumuman"],
    summary: "Delivery of the latest sent version per channel: queued, sent, failed, skipped with reasons",
    request: { params: IdParam },
    responses: { 200: json(DeliverySummary), ...problems(400, 401, 403, 404, 503) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await deliveryOf({ ctx: tenantCtx(c), id: params.id }));
  }
}
