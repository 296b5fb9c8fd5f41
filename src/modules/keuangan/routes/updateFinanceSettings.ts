import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { FinanceSettings, FinanceSettingsInput } from "../schemas";
import { updateFinanceSettings } from "../settings";

const schema = {
  tags: ["Keuangan"],
  summary: "Update the finance settings",
  description:
    "Admin only. Switches the public transparency report and sets the expense approval threshold; " +
    "fields left out keep their value. Optional If-Match (412 `precondition_failed`). Audited.",
  request: { body: { content: { "application/json": { schema: FinanceSettingsInput } } } },
  responses: { 200: json(FinanceSettings), ...problems(400, 401, 403) },
};

export class UpdateFinanceSettings extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await updateFinanceSettings({ ctx: tenantCtx(c), input: body }));
  }
}
