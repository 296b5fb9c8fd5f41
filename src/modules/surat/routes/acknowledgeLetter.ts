import type { Context } from "hono";
import { z } from "zod";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { acknowledgeLetter } from "../rwAcknowledgement";
import { RwAckItem } from "../schemas";

export class AcknowledgeLetter extends Endpoint {
  override schema = {
    tags: ["Surat"],
    summary:
      "The RW acknowledges a linked RT's finished letter: a new PDF version with 'Mengetahui, Ketua RW' and the RW head's name; the resident is told",
    request: { params: z.object({ letterId: z.string().min(1).max(64) }) },
    responses: { 200: json(RwAckItem), ...problems(400, 401, 403, 404, 409) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await acknowledgeLetter({ ctx: tenantCtx(c), id: params.letterId }));
  }
}
