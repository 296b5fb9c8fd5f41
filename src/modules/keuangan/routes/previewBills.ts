import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { previewBills } from "../iuran/generate";
import { GenerationPreview, PreviewQuery } from "../schemas";

const schema = {
  tags: ["Iuran"],
  summary: "Preview the period's bills",
  description:
    "The treasurer and admin. What `POST /api/iuran/tagihan/generate` would do for the period " +
    "(`YYYY-MM`) now, writing nothing: per active dues type in force then, how many bills it would " +
    "issue, at which amount and for how much in all, and how many are already issued.",
  request: { query: PreviewQuery },
  responses: { 200: json(GenerationPreview), ...problems(400, 401, 403) },
};

export class PreviewBills extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await previewBills({ ctx: tenantCtx(c), period: query.period }));
  }
}
