import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { InfoRt, InfoRtInput } from "../schemas";
import { getInfoRt, updateInfoRt } from "../service";

export class GetInfoRt extends Endpoint {
  override schema = {
    tags: ["Asisten"],
    summary: "The rules, service hours and agenda the staff wrote for the assistant to tell residents",
    responses: { 200: json(InfoRt), ...problems(401, 403) },
  };

  override async handle(c: Context<HonoEnv>) {
    return c.json(await getInfoRt({ ctx: tenantCtx(c) }));
  }
}

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
