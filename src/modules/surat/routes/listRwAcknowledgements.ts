import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { listRwAcknowledgements } from "../rwAcknowledgement";
import { RwAckItem, RwAckListQuery } from "../schemas";

export class ListRwAcknowledgements extends Endpoint {
  override schema = {
    tags: ["Surat"],
    summary:
      "The RW's queue: its linked RTs' finished letters waiting for its Mengetahui (or, by status, those acknowledged or declined), newest first",
    request: { query: RwAckListQuery },
    responses: { 200: json(listOf(RwAckItem)), ...tenantProblems },
  };

  override async handle(c: Context<HonoEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listRwAcknowledgements({ ctx: tenantCtx(c), input: query }));
  }
}
