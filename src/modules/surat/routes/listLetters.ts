import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { Letter, LetterListQuery } from "../schemas";
import { listLetters } from "../service";

export class ListLetters extends Endpoint {
  override schema = {
    tags: ["Surat"],
    summary: "Letter requests for staff: by status, type and request date (Asia/Jakarta days, inclusive)",
    request: { query: LetterListQuery },
    responses: { 200: json(listOf(Letter)), ...tenantProblems },
  };

  override async handle(c: Context<HonoEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listLetters({ ctx: tenantCtx(c), input: query }));
  }
}
