import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, tenantProblems } from "../../../core/http/openapi";
import { FinanceSettings } from "../schemas";
import { getFinanceSettings } from "../settings";

const schema = {
  tags: ["Keuangan"],
  summary: "Get the finance settings",
  description:
    "Community staff (sekretaris, bendahara, admin). Whether the public transparency report is on " +
    "(`transparansi`) and the expense approval threshold under which an officer's own expenses are " +
    "approved at once. ETag and 304 for If-None-Match.",
  request: {},
  responses: { 200: json(FinanceSettings), ...tenantProblems },
};

export class GetFinanceSettings extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    return c.json(await getFinanceSettings({ ctx: tenantCtx(c) }));
  }
}
