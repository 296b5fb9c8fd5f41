import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, tenantProblems } from "../../../core/http/openapi";
import { Letter } from "../schemas";
import { getLetter } from "../service";

export class GetLetter extends Endpoint {
  override schema = {
    tags: ["Surat"],
    summary: "Get a letter request",
    description:
      "With `surat` on: the resident who requested it, or any staff duty (bendahara, sekretaris, admin) (another resident's " +
      "letter is 404). Answers the request with its fields, status, number and date once set, the RW " +
      "acknowledgement, and its history of moves. ETag and 304 for If-None-Match.",
    request: { params: IdParam },
    responses: { 200: json(Letter), ...tenantProblems },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getLetter({ ctx: tenantCtx(c), id: params.id }));
  }
}
