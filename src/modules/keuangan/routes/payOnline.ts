import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { payOnline } from "../online";
import { OnlinePayment } from "../schemas";

export class PayOnline extends Endpoint {
  override schema = {
    tags: ["Iuran"],
    summary: "Pay one of the household's bills online: a gateway checkout for what is outstanding",
    request: { params: IdParam },
    responses: { 200: json(OnlinePayment), ...problems(401, 403, 404, 409, 503) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await payOnline({ ctx: tenantCtx(c), id: params.id }));
  }
}
