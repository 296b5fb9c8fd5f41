import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { LetterSettings } from "../schemas";
import { getSettings } from "../settings";

const schema = {
  tags: ["Surat"],
  summary: "Get the letter settings",
  description:
    "Staff (bendahara, sekretaris, admin), with `surat` on. The letterhead, signatory, RT/RW numbers, number format " +
    "and whether finished letters go to the linked RW for its acknowledgement, with what is still " +
    "missing before letters can be numbered or finished. ETag and 304 for If-None-Match.",

  responses: { 200: json(LetterSettings), ...problems(401, 403) },
};

export class GetLetterSettings extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    return c.json(await getSettings({ ctx: tenantCtx(c) }));
  }
}
