import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { LetterSettings, LetterSettingsInput } from "../schemas";
import { updateSettings } from "../settings";

const schema = {
  tags: ["Surat"],
  summary: "Update the letter settings",
  description:
    "Secretary and admin, with `surat` on. Changes the letterhead, signatory, number format and RW " +
    "acknowledgement switch; fields left out keep their value. Letters already finished keep the " +
    "letterhead and signatory they were finished with. 400 `invalid_number_format` for a format " +
    "without its sequence. Optional If-Match with the settings' ETag (412 `precondition_failed`). " +
    "Audited.",
  request: { body: { content: { "application/json": { schema: LetterSettingsInput } } } },
  responses: { 200: json(LetterSettings), ...problems(400, 401, 403) },
};

export class UpdateLetterSettings extends Endpoint {
  /** The letterhead logo travels inside the JSON as a data: URL of up to 300,000 characters. */
  static override maxBodyBytes = 320 * 1024;
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await updateSettings({ ctx: tenantCtx(c), input: body }));
  }
}
