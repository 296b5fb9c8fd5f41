import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { Visitor, VisitorListQuery } from "../schemas";
import { listVisitors } from "../service";

const schema = {
  tags: ["Tamu"],
  summary: "List guest registrations for review",
  description:
    "Community staff and the guard (satpam), with `tamu` on. Every registration of the community, " +
    "filtered by status (menunggu, disetujui, ditolak), by visit date (`from`/`to`, Asia/Jakarta " +
    "days, inclusive) or to those inside the community now (`inside=true`), paged by `cursor`. The " +
    "guard without a staff duty sees today's guests only (and after 23:00 WIB those of the next hour, whose " +
    "pass is already open), except for who is inside now: the screen of " +
    "the gate, whatever day they came (a stay of several days).",
  request: { query: VisitorListQuery },
  responses: { 200: json(listOf(Visitor)), ...tenantProblems },
};

export class ListVisitors extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listVisitors({ ctx: tenantCtx(c), input: query }));
  }
}
