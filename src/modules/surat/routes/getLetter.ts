import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, tenantProblems } from "../../../core/http/openapi";
import { readLetter } from "../publish";
import { Letter } from "../schemas";

const schema = {
  tags: ["Surat"],
  summary: "Get a letter request",
  description:
    "With `surat` on: the resident who requested it, or any staff duty (bendahara, sekretaris, admin) (another resident's " +
    "letter is 404). Answers the request with its fields, status, number and date once set, the RW " +
    "acknowledgement, and its history of moves; staff also get the subject's particulars from the registry " +
    "as the letter prints them (`subject`). ETag and 304 for If-None-Match.",
  request: { params: IdParam },
  responses: { 200: json(Letter), ...tenantProblems },
};

export class GetLetter extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await readLetter({ ctx: tenantCtx(c), id: params.id }));
  }
}
