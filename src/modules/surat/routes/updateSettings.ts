import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { LetterSettings, LetterSettingsInput } from "../schemas";
import { updateSettings } from "../settings";

export class UpdateLetterSettings extends Endpoint {
  /** The letterhead logo travels inside the JSON as a data: URL of up to 300,000 characters. */
  static override maxBodyBytes = 320 * 1024;
  override schema = {
    tags: ["Surat"],
    summary: "Edit the letterhead, signatory and number format (fields left out keep their value)",
    request: { body: { content: { "application/json": { schema: LetterSettingsInput } } } },
    responses: { 200: json(LetterSettings), ...problems(400, 401, 403) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await updateSettings({ ctx: tenantCtx(c), input: body }));
  }
}
