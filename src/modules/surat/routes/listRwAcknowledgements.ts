import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { listRwAcknowledgements } from "../rwAcknowledgement";
import { RwAckItem, RwAckListQuery } from "../schemas";

const schema = {
  tags: ["Surat"],
  summary: "List the RW's queue of letters to acknowledge",
  description:
    "Secretary and admin of an RW community, with `surat` on (an RT's staff get 403 `not_rw_tenant`). " +
    "The finished letters of its linked RTs waiting for the RW's Mengetahui, or by `status` those " +
    "acknowledged or declined, newest first across every linked RT, paged by `cursor`.",
  request: { query: RwAckListQuery },
  responses: { 200: json(listOf(RwAckItem)), ...tenantProblems },
};

export class ListRwAcknowledgements extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listRwAcknowledgements({ ctx: tenantCtx(c), input: query }));
  }
}
