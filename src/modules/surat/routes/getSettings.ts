import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { LetterSettings } from "../schemas";
import { getSettings } from "../settings";

export class GetLetterSettings extends Endpoint {
  override schema = {
    tags: ["Surat"],
    summary: "The letterhead, signatory and number format",

    responses: { 200: json(LetterSettings), ...problems(401, 403) },
  };

  override async handle(c: Context<HonoEnv>) {
    return c.json(await getSettings({ ctx: tenantCtx(c) }));
  }
}
