import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { updateProfile } from "../profile";
import { Me, ProfileInput } from "../schemas";

export class UpdateProfile extends Endpoint {
  override schema = {
    tags: ["User"],
    summary: "Set full name, WhatsApp number and housing unit (block and house number)",
    request: { body: { content: { "application/json": { schema: ProfileInput } } } },
    responses: { 200: json(Me), ...problems(400, 401, 403, 404, 409) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await updateProfile({ ctx: tenantCtx(c), input: body }));
  }
}
