import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { listApplications } from "../applications";
import { Application, ApplicationListQuery } from "../schemas";

const schema = {
  tags: ["Residents"],
  summary: "List resident applications",
  description:
    "Secretary and admin, with `warga` on. The community's applications, newest first, filtered by " +
    "status (menunggu, disetujui, ditolak), paged by `cursor`.",
  request: { query: ApplicationListQuery },
  responses: { 200: json(listOf(Application)), ...tenantProblems },
};

export class ListApplications extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listApplications({ ctx: tenantCtx(c), input: query }));
  }
}
