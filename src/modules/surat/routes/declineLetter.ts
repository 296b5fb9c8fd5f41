import type { Context } from "hono";
import { z } from "zod";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { declineLetter } from "../rwAcknowledgement";
import { DeclineAckInput, RwAckItem } from "../schemas";

const schema = {
  tags: ["Surat"],
  summary: "Decline a linked RT's finished letter as the RW",
  description:
    "Secretary and admin of an RW community, with `surat` on. Declines with a reason: the letter goes " +
    "back to the RT (selesai → diproses, no longer verifiable by its QR) to be corrected and finished " +
    "again, which sends it to the RW once more. 409 `invalid_transition` when the letter is no longer " +
    "waiting; 404 for a letter not sent to this RW; 403 `not_rw_tenant` for an RT.",
  request: {
    params: z.object({ letterId: z.string().min(1).max(64) }),
    body: { content: { "application/json": { schema: DeclineAckInput } } },
  },
  responses: { 200: json(RwAckItem), ...problems(400, 401, 403, 404, 409) },
};

export class DeclineLetter extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await declineLetter({ ctx: tenantCtx(c), id: params.letterId, input: body }));
  }
}
