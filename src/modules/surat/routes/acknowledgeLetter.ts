import type { Context } from "hono";
import { z } from "zod";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { acknowledgeLetter } from "../rwAcknowledgement";
import { RwAckItem } from "../schemas";

const schema = {
  tags: ["Surat"],
  summary: "Acknowledge a linked RT's finished letter as the RW",
  description:
    "Secretary and admin of an RW community, with `surat` on. The letter's RW acknowledgement moves " +
    "menunggu → diketahui: a new PDF version prints 'Mengetahui, Ketua RW' with the RW head's name " +
    "and the date, and the resident is told. 409 `invalid_transition` when the letter is no longer " +
    "waiting, 409 `letter_settings_incomplete` when the RW's own settings lack its number or head's " +
    "name; 404 for a letter not sent to this RW; 403 `not_rw_tenant` for an RT.",
  request: { params: z.object({ letterId: z.string().min(1).max(64) }) },
  responses: { 200: json(RwAckItem), ...problems(400, 401, 403, 404, 409) },
};

export class AcknowledgeLetter extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await acknowledgeLetter({ ctx: tenantCtx(c), id: params.letterId }));
  }
}
