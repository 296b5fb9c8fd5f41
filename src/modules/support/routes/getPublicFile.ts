import type { Context } from "hono";
import { z } from "zod";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { problems } from "../../../core/http/openapi";
import { servePublicFile } from "../files";
import { PublicFileParams } from "../schemas";

const schema = {
  tags: ["Support (public)"],
  summary: "Get an image of the ticket a reply token opens",
  description:
    "Public, no sign-in: the reply token from the ticket's emails is the credential (not logged, not " +
    "cached). An image of that ticket only; any other id is 404. 429 `rate_limited` per address.",
  security: [],
  request: { params: PublicFileParams },
  responses: {
    200: { description: "The image", content: { "image/*": { schema: z.string() } } },
    ...problems(404, 429),
  },
};

export class GetPublicFile extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return servePublicFile({ ctx: platformCtx(c), id: params.id, input: { token: params.reply_token } });
  }
}
