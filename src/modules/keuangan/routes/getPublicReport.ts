import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { publicFinanceReport } from "../laporan/report";
import { periodOf } from "../periods";
import { FinanceReport, PublicReportQuery, SlugParam } from "../schemas";

const schema = {
  tags: ["Laporan"],
  summary: "Get a community's published finance report",
  description:
    "Public, no sign-in: the community is named by its slug. The month's finance report, the same as " +
    "staff read, only while the community's admin has the transparency report on (404 otherwise); it " +
    "carries no personal data. 403 for a suspended community.",
  security: [],
  request: { params: SlugParam, query: PublicReportQuery },
  responses: { 200: json(FinanceReport), ...problems(400, 403, 404) },
};

export class GetPublicReport extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    const ctx = tenantCtx(c);
    return c.json(await publicFinanceReport({ ctx, month: query.bulan ?? periodOf(ctx.now()) }));
  }
}
