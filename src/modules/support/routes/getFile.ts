import type { Context } from "hono";
import { z } from "zod";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, problems } from "../../../core/http/openapi";
import { serveFile } from "../files";

const schema = {
  tags: ["Support"],
  summary: "Get a support ticket image",
  description:
    "Signed-in users: the admins of the ticket's community and platform operators; anyone else gets " +
    "404, as for an image that does not exist.",
  request: { params: IdParam },
  responses: {
    200: { description: "The image", content: { "image/*": { schema: z.string() } } },
    ...problems(401, 404),
  },
};

export class GetSupportFile extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return serveFile({ ctx: platformCtx(c), id: params.id });
  }
}
