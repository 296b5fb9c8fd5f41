import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { getPlatformArchive } from "../archives";
import { ArchiveView } from "../schemas";

const schema = {
  tags: ["Platform: operations"],
  summary: "Get any archive's status as an operator",
  description:
    "Platform operators only. Any tenant archive's status, export or import, with its size, checksums " +
    "and, for an import, what it restored.",
  request: { params: IdParam },
  responses: { 200: json(ArchiveView), ...problems(401, 403, 404) },
};

export class GetPlatformArchive extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getPlatformArchive({ ctx: platformCtx(c), id: params.id }));
  }
}
