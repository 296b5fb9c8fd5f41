import type { Context } from "hono";
import { z } from "zod";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, problems } from "../../../core/http/openapi";
import { serveTenantFile } from "../store";

const schema = {
  tags: ["Berkas"],
  summary: "Get a stored image",
  description:
    "Members: the uploader and the duties its purpose allows (anyone else gets 404, as for a file " +
    "that does not exist). Served with an ETag (304 for If-None-Match) and private caching.",
  request: { params: IdParam },
  responses: {
    200: { description: "The image", content: { "image/*": { schema: z.string() } } },
    304: { description: "Not modified (If-None-Match matched the ETag)" },
    ...problems(401, 403, 404),
  },
};

export class GetFile extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    // If-None-Match is read as sent: the verb only compares it with the stored ETag.
    return serveTenantFile({
      ctx: tenantCtx(c),
      id: params.id,
      input: { ifNoneMatch: c.req.header("If-None-Match") ?? null },
    });
  }
}
