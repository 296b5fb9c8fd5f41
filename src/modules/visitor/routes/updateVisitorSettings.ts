import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { VisitorSettings, VisitorSettingsInput } from "../schemas";
import { updateVisitorSettings } from "../settings";

export class UpdateVisitorSettings extends Endpoint {
  override schema = {
    tags: ["Visitor"],
    summary: "Choose whether registrations must give the guest's vehicle plate and identity (admin)",
    description: "Fields left out keep their value. Audited as `visitor.settings`.",
    request: { body: { content: { "application/json": { schema: VisitorSettingsInput } } } },
    responses: { 200: json(VisitorSettings), ...problems(400, 401, 403) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await updateVisitorSettings({ ctx: tenantCtx(c), input: body }));
  }
}
