import type { Context } from "hono";
import { ListQuery } from "../../../core/db/paging";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { Letter } from "../schemas";
import { listMyLetters } from "../service";

const schema = {
  tags: ["Surat"],
  summary: "List the caller's letter requests",
  description:
    "Residents only, with `surat` on. The caller's own letter requests, newest first, with their " +
    "status, paged by `cursor`.",
  request: { query: ListQuery },
  responses: { 200: json(listOf(Letter)), ...tenantProblems },
};

export class ListMyLetters extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listMyLetters({ ctx: tenantCtx(c), input: query }));
  }
}
