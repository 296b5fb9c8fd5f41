import type { Context } from "hono";
import { keysetPage } from "../../../core/db/paging";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, problems } from "../../../core/http/openapi";
import { paymentCallbacksFor } from "../../../platform/payments";
import { PaymentCallback, PaymentCallbackQuery } from "../schemas";

const schema = {
  tags: ["Platform"],
  summary: "List payment gateway callbacks",
  description:
    "Platform operators only. Every payment gateway callback received, newest first: the gateway, the " +
    "order, whether its signature verified, and what came of it (applied, ignored, refused with the " +
    "reason), paged by `cursor`; unverified callbacks are kept only a few hours.",
  request: { query: PaymentCallbackQuery },
  responses: { 200: json(listOf(PaymentCallback)), ...problems(400, 401, 403) },
};

export class ListPaymentCallbacks extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    const rows = await paymentCallbacksFor(platformCtx(c), {
      orderIds: query.orderId ? [query.orderId] : undefined,
      cursor: query.cursor,
      limit: query.limit + 1,
    });
    return c.json(keysetPage(rows, query.limit));
  }
}
