import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { VisitorSettings, VisitorSettingsInput } from "../schemas";
import { updateVisitorSettings } from "../settings";

const schema = {
  tags: ["Tamu"],
  summary: "Choose whether a guest's vehicle plate and identity are required",
  description:
    "Admin only, with the guest book (`tamu`) on. Both are required at registration by default (the " +
    "spec: given at registration); a community that does not record them turns either off here. Fields " +
    "left out keep their value. Audited as `visitor.settings`.",
  request: { body: { content: { "application/json": { schema: VisitorSettingsInput } } } },
  responses: { 200: json(VisitorSettings), ...problems(400, 401, 403) },
};

export class UpdateVisitorSettings extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await updateVisitorSettings({ ctx: tenantCtx(c), input: body }));
  }
}
