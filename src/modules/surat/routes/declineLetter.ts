import type { Context } from "hono";
import { z } from "zod";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { declineLetter } from "../rwAcknowledgement";
import { DeclineAckInput, RwAckItem } from "../schemas";

export class DeclineLetter extends Endpoint {
  override schema = {
    tags: ["Surat"],
    summary:
      "The RW declines a linked RT's finished letter: it goes back to the RT (diproses) with the reason",
    request: {
      params: z.object({ letterId: z.string().min(1).max(64) }),
      body: { content: { "application/json": { schema: DeclineAckInput } } },
    },
    responses: { 200: json(RwAckItem), ...problems(400, 401, 403, 404, 409) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await declineLetter({ ctx: tenantCtx(c), id: params.letterId, input: body }));
  }
}
