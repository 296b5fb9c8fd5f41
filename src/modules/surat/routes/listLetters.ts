import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { Letter, LetterListQuery } from "../schemas";
import { listLetters } from "../service";

const schema = {
  tags: ["Surat"],
  summary: "List letter requests for staff",
  description:
    "Community staff, with `surat` on. Every letter request of the community, newest first, filtered " +
    "by status (diajukan, diproses, perlu_perbaikan, selesai, ditolak, dibatalkan), type and request " +
    "date (`from`/`to`, Asia/Jakarta days, inclusive), paged by `cursor`.",
  request: { query: LetterListQuery },
  responses: { 200: json(listOf(Letter)), ...tenantProblems },
};

export class ListLetters extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listLetters({ ctx: tenantCtx(c), input: query }));
  }
}
