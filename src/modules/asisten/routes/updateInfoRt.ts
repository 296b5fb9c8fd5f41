import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { InfoRt, InfoRtInput } from "../schemas";
import { updateInfoRt } from "../service";

export class UpdateInfoRt extends Endpoint {
  override schema = {
    tags: ["Asisten"],
    summary: "Write the rules, service hours or agenda the assistant tells residents",
    request: { body: { content: { "application/json": { schema: InfoRtInput } } } },
    responses: { 200: json(InfoRt), ...problems(400, 401, 403) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await updateInfoRt({ ctx: tenantCtx(c), input: body }));
  }
}
