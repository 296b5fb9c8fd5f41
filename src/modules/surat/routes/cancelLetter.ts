import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { CancelLetterInput, Letter } from "../schemas";
import { cancelLetter } from "../service";

export class CancelLetter extends Endpoint {
  override schema = {
    tags: ["Surat"],
    summary: "Cancel one's own request before it is selesai",
    request: { params: IdParam, body: { content: { "application/json": { schema: CancelLetterInput } } } },
    responses: { 200: json(Letter), ...problems(400, 401, 403, 404, 409) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await cancelLetter({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
